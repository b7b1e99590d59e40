import { randomBytes } from 'node:crypto';
import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import { type ErrorBody, secretFindingsText } from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { ZodError } from 'zod';
import { maskUrl } from './redact.js';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_BODY,
  isDatabaseUnavailable,
  UnavailableLog,
} from './database-unavailable.js';
import { SecretsFoundException } from './secrets.js';
import { describeZodError } from './zod-error.js';

/** What body-parser attaches to the errors it raises (Nest keeps them as the HttpException's cause). */
interface BodyParserError {
  type?: string;
  limit?: number;
}

/**
 * The API's one error shape, `{ statusCode, message }`: an unreachable database is a 503 with Retry-After;
 * anything unexpected is logged with its stack under a random id, and the client learns only the id.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');
  private readonly unavailable = new UnavailableLog(this.logger);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const body = this.toErrorBody(exception, req);
    if (body === DATABASE_UNAVAILABLE_BODY && !res.headersSent) {
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    }
    if (res.headersSent) {
      // Part of a response is already out: all we can do is cut it short.
      res.end();
      return;
    }
    if (exception instanceof SecretsFoundException) {
      // The findings with the message; as text for a terminal that asked for it.
      if (exception.plain) {
        res
          .status(body.statusCode)
          .type('text/plain; charset=utf-8')
          .send(secretFindingsText(exception.body()));
      } else {
        res.status(body.statusCode).json(exception.body());
      }
      return;
    }
    // JSON, whatever Content-Type the route set for its own answer (the raw text's text/plain).
    res.status(body.statusCode).type('application/json').json(body);
  }

  private toErrorBody(exception: unknown, req: Request): ErrorBody {
    if (exception instanceof HttpException) {
      const statusCode = exception.getStatus();
      if (statusCode >= 500)
        this.logger.error(`${req.method} ${maskUrl(req.originalUrl)}: ${exception.message}`, exception.stack);
      return { statusCode, message: httpExceptionMessage(exception) };
    }
    if (exception instanceof ZodError) {
      return { statusCode: HttpStatus.BAD_REQUEST, message: describeZodError(exception) };
    }
    if (isDatabaseUnavailable(exception)) {
      this.unavailable.note(exception);
      return DATABASE_UNAVAILABLE_BODY;
    }
    const id = randomBytes(4).toString('hex');
    const stack = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
    this.logger.error(`Internal error (id ${id}) on ${req.method} ${maskUrl(req.originalUrl)}`, stack);
    return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, message: `Internal error (id ${id})` };
  }
}

function httpExceptionMessage(exception: HttpException): string {
  const cause = exception.cause as BodyParserError | undefined;
  if (cause?.type === 'entity.parse.failed') return `Malformed JSON in request body: ${exception.message}`;
  if (cause?.type === 'entity.too.large') {
    return `Request body is too large${cause.limit ? ` (limit ${cause.limit} bytes)` : ''}`;
  }
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  if (typeof response === 'object' && response !== null && 'message' in response) {
    const { message } = response;
    if (typeof message === 'string') return message;
    if (Array.isArray(message)) return message.map(String).join('; ');
  }
  return exception.message;
}
