// What the logs must never hold, and how it is blanked out.

/** What replaces a secret in a log line. */
export const REDACTED = '[Redacted]';

/** Fields never written, wherever they appear in a logged object (and never as request bodies: none are logged). */
const SECRET_FIELDS = ['password', 'currentPassword', 'newPassword', 'token'];

/** Paths pino blanks out in every line. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

/**
 * Query parameters that authorize something: a reset link's `token`, an upload's signature, a sign-in
 * provider's authorization `code` and the `state` it comes back with.
 */
const SECRET_QUERY =
  /([?&](?:token|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|code|state)=)[^&#]*/gi;

/** The URL as logged: the values of secret query parameters masked. */
export function maskUrl(url: string): string {
  return url.replace(SECRET_QUERY, `$1${REDACTED}`);
}
