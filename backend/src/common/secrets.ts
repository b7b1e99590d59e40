import {
  BadRequestException,
  createParamDecorator,
  type ExecutionContext,
  UnprocessableEntityException,
} from '@nestjs/common';
import {
  ALLOW_SECRETS_PARAM,
  allowSecretsBodySchema,
  allowSecretsQuerySchema,
  SECRET_FINDINGS_MAX,
  type SecretFinding,
  type SecretFindingsBody,
  SECRETS_MESSAGES,
} from '@termpaste/contracts';
import type { Request } from 'express';
import { scanSecrets } from './secret-scanner.js';

/*
 * The secret warning for routes that store a text: call refuseSecrets(text, allowSecrets) in the
 * controller, after the body's validation (a 400 comes first, so PUBLISH ANYWAY never meets one) and
 * before the service's transaction. An interceptor would see an unvalidated body, a pipe no query.
 */

/** 422 `{statusCode, message, findings}` (the error filter writes the findings; as text when `plain`). */
export class SecretsFoundException extends UnprocessableEntityException {
  constructor(
    readonly findings: SecretFinding[],
    /** How many were found (the body lists at most SECRET_FINDINGS_MAX). */
    readonly total: number,
    /** Answer as text/plain (`POST /api/pastes` to a client that prefers text): secretFindingsText. */
    readonly plain = false,
  ) {
    super(SECRETS_MESSAGES.found(total));
  }

  body(): SecretFindingsBody {
    return { statusCode: 422, message: this.message, findings: this.findings };
  }
}

/**
 * Whether the request says `allowSecrets=true`: the query parameter, or (`fromBody`) the JSON body's
 * field. 400 for a value other than true or false (a boolean in a body).
 */
export function allowsSecrets(req: Request, fromBody = true): boolean {
  const query = allowSecretsQuerySchema.safeParse(req.query?.[ALLOW_SECRETS_PARAM]);
  if (!query.success) throw new BadRequestException(SECRETS_MESSAGES.allowSecretsQuery);
  const raw: unknown = req.body;
  const field =
    fromBody && typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)[ALLOW_SECRETS_PARAM]
      : undefined;
  const body = allowSecretsBodySchema.safeParse(field);
  if (!body.success) throw new BadRequestException(SECRETS_MESSAGES.allowSecretsBody);
  return query.data === 'true' || body.data === true;
}

/** `@AllowSecrets()`: allowsSecrets of the request (query parameter or JSON body field). */
export const AllowSecrets = createParamDecorator((fromBody: boolean | undefined, context: ExecutionContext) =>
  allowsSecrets(context.switchToHttp().getRequest<Request>(), fromBody ?? true),
);

/**
 * 422 (SecretsFoundException) when `text` holds a secret, unless `allowSecrets`; `plain` answers as text.
 */
export async function refuseSecrets(
  text: string,
  allowSecrets: boolean,
  options: { plain?: boolean } = {},
): Promise<void> {
  if (allowSecrets) return;
  const findings = await scanSecrets(text);
  if (findings.length === 0) return;
  throw new SecretsFoundException(findings.slice(0, SECRET_FINDINGS_MAX), findings.length, options.plain);
}
