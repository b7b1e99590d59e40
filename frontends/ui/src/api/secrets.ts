import { ALLOW_SECRETS_PARAM, type SecretFindingsBody, secretFindingsBodySchema } from '@termpaste/contracts';

/*
 * The secret warning as the API client sees it: a 422 listing the findings, then a second call with
 * `allowSecrets: true`.
 */

/** The findings of an API error (`422: {"message", "findings"}`), or null for any other error. */
export function secretFindingsOf(error: unknown): SecretFindingsBody | null {
  if (!(error instanceof Error)) return null;
  const match = /^422: ([\s\S]*)$/.exec(error.message);
  if (!match) return null;
  let body: unknown;
  try {
    body = JSON.parse(match[1]!);
  } catch {
    return null;
  }
  const parsed = secretFindingsBodySchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** A JSON body with `allowSecrets: true` added when `allowSecrets` (else the body as it is). */
export function withAllowSecrets<T extends object>(body: T, allowSecrets: boolean): T {
  return allowSecrets ? { ...body, [ALLOW_SECRETS_PARAM]: true } : body;
}

/** The member chose EDIT: the call was not made again. Forms say nothing (no error toast). */
export class SecretWarningDismissed extends Error {
  constructor() {
    super('Not published: the text holds a possible secret');
    this.name = 'SecretWarningDismissed';
  }
}

export function isSecretWarningDismissed(error: unknown): boolean {
  return error instanceof SecretWarningDismissed;
}
