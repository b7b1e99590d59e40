/**
 * One made-up secret of each family the scanner claims, built from parts so the repository holds no
 * whole token for other scanners to flag. `value` is what a finding masks.
 */
export interface SecretSample {
  family: string;
  /** The finding's rule. */
  rule: string;
  /** A line of a paste holding the secret. */
  text: string;
  /** The secret in it (the value the finding masks). */
  value: string;
}

const join = (...parts: string[]): string => parts.join('');

export const AWS_ACCESS_KEY_ID = join('AKIA', 'QYLPMN5H', 'HHFPZAM2');
const awsSecret = join('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYzQWERTYKEY');
const gcpApiKey = join('AIza', 'SyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe');
const github = join('ghp_', 'R2d2C3p0BB8xWingT1eF1ghter', '0123456789');
const gitlab = join('glpat-', 'Xy9bQ2mN7vK4pL1sT8wZ');
const slack = join('xoxb-', '2048-4096-', 'vE3nTgR7uKqPzLmW9sYdHx1c');
const npm = join('npm_', 'Kq8wZr5TnB2yLp7VxC4mJd9gH6sF3aQe1RtU');
const jwt = join(
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  '.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9',
  '.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
);
const pgPassword = join('Tr0ub4dor', '-and-3');
const postgres = `postgres://app:${pgPassword}@db.internal:5432/prod`;
const termpaste = join('tp_', 'Zx81Spectrum', 'C64Amiga500Atari2600NesSnesX');
const keyBody = join('MIIEpAIBAAKCAQEA', 'q7BFUyGjN2cVh1R8'.repeat(12));
const privateKey = `-----BEGIN RSA PRIVATE KEY-----\n${keyBody.match(/.{1,64}/g)!.join('\n')}\n-----END RSA PRIVATE KEY-----`;
/** A GCP service account key file, as downloaded (the paste is the whole file). */
export const GCP_SERVICE_ACCOUNT_JSON = JSON.stringify(
  {
    type: 'service_account',
    project_id: 'termpaste-demo',
    private_key_id: join('3f1c0e9a7b', '5d2e8f4a6c1b0d9e7f3a2c5b'),
    private_key: `${privateKey.replace('RSA ', '')}\n`,
    client_email: 'paste-bot@termpaste-demo.iam.gserviceaccount.com',
  },
  null,
  2,
);

export const SECRET_SAMPLES: SecretSample[] = [
  {
    family: 'AWS',
    rule: 'aws:AWSAccessKeyID',
    text: `aws_access_key_id = ${AWS_ACCESS_KEY_ID}`,
    value: AWS_ACCESS_KEY_ID,
  },
  {
    family: 'AWS',
    rule: 'aws:AWSSecretAccessKey',
    text: `aws_secret_access_key = "${awsSecret}"`,
    value: awsSecret,
  },
  { family: 'GCP', rule: 'gcp:APIKey', text: `const key = '${gcpApiKey}';`, value: gcpApiKey },
  { family: 'GitHub', rule: 'github:GITHUB_TOKEN', text: `export GITHUB_TOKEN=${github}`, value: github },
  { family: 'GitLab', rule: 'gitlab:GITLAB_PERSONAL_ACCESS_TOKEN', text: `token: ${gitlab}`, value: gitlab },
  { family: 'Slack', rule: 'slack:SLACK_TOKEN', text: `SLACK_BOT_TOKEN=${slack}`, value: slack },
  {
    family: 'npm',
    rule: 'npm:NPM_ACCESS_TOKEN',
    text: `//registry.npmjs.org/:_authToken=${npm}`,
    value: npm,
  },
  { family: 'private key', rule: 'privatekey:PrivateKey', text: privateKey, value: privateKey },
  { family: 'JWT', rule: 'jwt:JSONWebToken', text: `Authorization: Bearer ${jwt}`, value: jwt },
  {
    family: 'database URL',
    rule: 'database-connection-string:PostgreSQLConnection',
    text: `DATABASE_URL=${postgres}`,
    value: postgres,
  },
  {
    family: 'tp_ token',
    rule: 'termpaste:AccessToken',
    text: `TERMPASTE_TOKEN=${termpaste}`,
    value: termpaste,
  },
];
