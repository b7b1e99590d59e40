import {
  allowSecretsBodySchema,
  allowSecretsQuerySchema,
  maskSecret,
  SECRET_MASK_STARS_MAX,
  secretFindingsBodySchema,
  secretFindingsText,
  secretKind,
  SECRETS_MESSAGES,
} from './secrets.js';

describe('maskSecret', () => {
  it('keeps the first 4 characters and a * for each other one', () => {
    expect(maskSecret('AKIAQYLPMN5HHHFPZAM2')).toBe(`AKIA${'*'.repeat(16)}`);
  });

  it(`shows at most ${SECRET_MASK_STARS_MAX} stars`, () => {
    expect(maskSecret('x'.repeat(1000))).toBe(`xxxx${'*'.repeat(SECRET_MASK_STARS_MAX)}`);
  });

  it('keeps nothing of a short secret, or of one that starts with a space or a control character', () => {
    expect(maskSecret('hunter2')).toBe('*******');
    const file = '{\n  "type": "service_account"';
    expect(maskSecret(file)).toBe('*'.repeat(file.length));
  });

  it('counts characters, not UTF-16 units', () => {
    expect(maskSecret('🔑🔑🔑🔑secret')).toBe('🔑🔑🔑🔑******');
  });
});

describe('secretKind', () => {
  it('names a rule, else its family, else the rule itself', () => {
    expect(secretKind('aws:AWSAccessKeyID')).toBe('AWS access key ID');
    expect(secretKind('github:GITHUB_TOKEN')).toBe('GitHub token');
    expect(secretKind('brand-new:Thing')).toBe('brand-new:Thing');
  });
});

describe('allowSecrets', () => {
  it('is true or false in a query, a boolean in a body', () => {
    expect(allowSecretsQuerySchema.safeParse('true').success).toBe(true);
    expect(allowSecretsQuerySchema.safeParse(undefined).success).toBe(true);
    expect(allowSecretsQuerySchema.safeParse('yes').success).toBe(false);
    expect(allowSecretsBodySchema.safeParse(true).success).toBe(true);
    expect(allowSecretsBodySchema.safeParse('true').success).toBe(false);
  });
});

describe('the 422 body', () => {
  const body = {
    statusCode: 422 as const,
    message: SECRETS_MESSAGES.found(1),
    findings: [{ rule: 'aws:AWSAccessKeyID', line: 3, column: 28, masked: `AKIA${'*'.repeat(16)}` }],
  };

  it('has at least one finding', () => {
    expect(secretFindingsBodySchema.parse(body)).toEqual(body);
    expect(secretFindingsBodySchema.safeParse({ ...body, findings: [] }).success).toBe(false);
  });

  it('reads as text: the message, one finding a line, how to publish anyway', () => {
    expect(secretFindingsText(body)).toBe(
      `${SECRETS_MESSAGES.found(1)}\n` +
        `  line 3, column 28: AWS access key ID (aws:AWSAccessKeyID) AKIA${'*'.repeat(16)}\n` +
        'To publish anyway, add ?allowSecrets=true to the URL (termpaste --allow-secrets).\n',
    );
  });
});
