import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorFilter } from '../../../common/error.filter.js';
import { attemptOf } from './sso-attempt.js';
import { refusalUrl } from './sso-urls.js';

/**
 * A provider's callback past the sign-in limits is a browser navigation: it lands on the page the
 * attempt came from with `?sso_error=rate_limited` (Retry-After stays), not on a JSON 429. Any other
 * error is the app's usual answer.
 */
@Catch(HttpException)
export class SsoRateLimitFilter implements ExceptionFilter {
  private readonly usual = new ErrorFilter();

  catch(exception: HttpException, host: ArgumentsHost): void {
    if (exception.getStatus() !== HttpStatus.TOO_MANY_REQUESTS) return this.usual.catch(exception, host);
    const http = host.switchToHttp();
    const intent = attemptOf(http.getRequest<Request>())?.intent ?? 'login';
    http.getResponse<Response>().redirect(302, refusalUrl(intent, 'rate_limited'));
  }
}
