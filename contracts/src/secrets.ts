import { z } from 'zod';

/*
 * A text that looks like it holds a secret (paste, reply, edit, message, support request) is refused
 * with 422 and the findings unless the request says `allowSecrets=true`: a warning before publishing.
 */

/** The query parameter (and JSON body field) that publishes a text in spite of its findings. */
export const ALLOW_SECRETS_PARAM = 'allowSecrets';

/** A 422 lists at most this many findings (the message counts them all). */
export const SECRET_FINDINGS_MAX = 50;

/** Characters of a secret a masked value keeps (and only of a secret at least twice as long). */
export const SECRET_MASK_KEEP = 4;
/** A masked value has at most this many `*`, however long the secret. */
export const SECRET_MASK_STARS_MAX = 32;

/**
 * What a finding shows of a secret: its first SECRET_MASK_KEEP characters (none for one shorter than
 * twice that, or whose start has a space or a control character), then a `*` for each other character, at most SECRET_MASK_STARS_MAX of them.
 */
export function maskSecret(value: string): string {
  const characters = Array.from(value);
  const start = characters.slice(0, SECRET_MASK_KEEP).join('');
  const keep = characters.length >= 2 * SECRET_MASK_KEEP && !/[\s\p{C}]/u.test(start) ? SECRET_MASK_KEEP : 0;
  const stars = Math.min(characters.length - keep, SECRET_MASK_STARS_MAX);
  return characters.slice(0, keep).join('') + '*'.repeat(stars);
}

/** One secret found: which rule, where (1-based line and column, in characters), and the value masked. */
export const secretFindingSchema = z.object({
  /** `family:kind`, as `aws:AWSAccessKeyID` or `termpaste:AccessToken` (secretKind names it for people). */
  rule: z.string(),
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  /** maskSecret of the value: never the secret itself. */
  masked: z.string(),
});
export type SecretFinding = z.infer<typeof secretFindingSchema>;

/** The 422 body: the API's error shape with the findings. */
export const secretFindingsBodySchema = z.object({
  statusCode: z.literal(422).optional(),
  message: z.string(),
  findings: z.array(secretFindingSchema).min(1),
});
export type SecretFindingsBody = z.infer<typeof secretFindingsBodySchema>;

/** `?allowSecrets=`: `true` publishes in spite of findings; `false` or absent scans. */
export const allowSecretsQuerySchema = z.enum(['true', 'false']).optional();
/** `allowSecrets` in a JSON body: a boolean, or absent. */
export const allowSecretsBodySchema = z.boolean().optional();

/** How a rule's findings read for people (the dialog's "kind"), by rule then by family. */
const SECRET_KINDS: Record<string, string> = {
  'aws:AWSAccessKeyID': 'AWS access key ID',
  'aws:AWSSecretAccessKey': 'AWS secret access key',
  'aws:AWSAccountID': 'AWS account ID',
  'gcp:APIKey': 'GCP API key',
  'gcp:PrivateKeyJSON': 'GCP service account key',
  'termpaste:AccessToken': 'Termpaste access token',
  'jwt:JSONWebToken': 'JSON Web Token',
  'database-connection-string:PostgreSQLConnection': 'PostgreSQL URL with password',
  'database-connection-string:MySQLConnection': 'MySQL URL with password',
  'database-connection-string:MongoDBConnection': 'MongoDB URL with password',
  'database-connection-string:SQLServerConnection': 'SQL Server connection string',
  'database-connection-string:JDBCConnection': 'JDBC URL with password',
  aws: 'AWS credential',
  gcp: 'GCP credential',
  github: 'GitHub token',
  gitlab: 'GitLab token',
  slack: 'Slack token',
  npm: 'npm token',
  privatekey: 'Private key',
  basicauth: 'URL with password',
  'database-connection-string': 'Database URL with password',
  openai: 'OpenAI API key',
  anthropic: 'Anthropic API key',
  stripe: 'Stripe key',
  sendgrid: 'SendGrid API key',
  shopify: 'Shopify token',
  '1password': '1Password token',
  'hashicorp-vault': 'Vault token',
  docker: 'Docker token',
  cloudflare: 'Cloudflare token',
};

/** A finding's kind for people: `AWS access key ID`, `GitHub token`; the rule itself when unnamed. */
export function secretKind(rule: string): string {
  return SECRET_KINDS[rule] ?? SECRET_KINDS[rule.split(':')[0]!] ?? rule;
}

export const SECRETS_MESSAGES = {
  /** 422: the text holds `count` possible secrets. */
  found: (count: number) =>
    `Possible secret${count === 1 ? '' : 's'} found (${count}): remove ${count === 1 ? 'it' : 'them'}, or send again with allowSecrets=true to publish anyway`,
  /** 400: `?allowSecrets=` other than true or false. */
  allowSecretsQuery: 'allowSecrets must be true or false',
  /** 400: a JSON body's `allowSecrets` other than a boolean. */
  allowSecretsBody: 'allowSecrets must be a boolean',
  /** The browser's dialog. */
  dialogTitle: 'POSSIBLE SECRET DETECTED',
  dialogIntro: 'This text looks like it holds a secret. Once published, anyone can read it.',
  edit: 'EDIT',
  publishAnyway: 'PUBLISH ANYWAY',
  /** The dialog's line of a finding. */
  findingLine: (finding: SecretFinding) =>
    `${secretKind(finding.rule)}, line ${finding.line}, column ${finding.column}: ${finding.masked}`,
  /** The dialog's note when the server listed fewer findings than it found. */
  more: (count: number) => `…and ${count} more`,
} as const;

/**
 * The 422 as text, for a client that asked for text/plain (`POST /api/pastes` with curl): the message,
 * one finding a line, and how to publish anyway.
 */
export function secretFindingsText(body: Pick<SecretFindingsBody, 'message' | 'findings'>): string {
  const lines = body.findings.map(
    (finding) =>
      `  line ${finding.line}, column ${finding.column}: ${secretKind(finding.rule)} (${finding.rule}) ${finding.masked}`,
  );
  return `${body.message}\n${lines.join('\n')}\nTo publish anyway, add ?${ALLOW_SECRETS_PARAM}=true to the URL (termpaste --allow-secrets).\n`;
}
