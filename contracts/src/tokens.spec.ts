import {
  createTokenSchema,
  TOKEN_EXPIRY_DAYS_DEFAULT,
  TOKEN_MESSAGES,
  TOKEN_PATTERN,
  TOKEN_REVOKED_REASONS,
  TOKEN_SCOPE_DESCRIPTIONS,
  TOKEN_SCOPES,
  tokenSchema,
} from './tokens.js';

/** The first message zod gives for the body, or null when it parses. */
function firstError(body: unknown): string | null {
  const result = createTokenSchema.safeParse(body);
  return result.success ? null : result.error.issues[0]!.message;
}

describe('createTokenSchema', () => {
  it('takes a name, scopes and an expiry, trimming the name; the expiry defaults to 30 days', () => {
    expect(createTokenSchema.parse({ name: '  laptop ', scopes: ['read'] })).toEqual({
      name: 'laptop',
      scopes: ['read'],
      expiresInDays: TOKEN_EXPIRY_DAYS_DEFAULT,
    });
    expect(
      createTokenSchema.parse({ name: 'ci', scopes: ['pastes:write', 'read'], expiresInDays: null }),
    ).toEqual({ name: 'ci', scopes: ['pastes:write', 'read'], expiresInDays: null });
    expect(firstError({ name: 'ci', scopes: ['read'], expiresInDays: 365 })).toBeNull();
  });

  it('names what is wrong', () => {
    expect(firstError({ scopes: ['read'] })).toBe(TOKEN_MESSAGES.nameRequired);
    expect(firstError({ name: '   ', scopes: ['read'] })).toBe(TOKEN_MESSAGES.nameRequired);
    expect(firstError({ name: 'x'.repeat(65), scopes: ['read'] })).toBe(TOKEN_MESSAGES.nameTooLong);
    expect(firstError({ name: 'x'.repeat(64), scopes: ['read'] })).toBeNull();
    expect(firstError({ name: 'ci' })).toBe(TOKEN_MESSAGES.scopesRequired);
    expect(firstError({ name: 'ci', scopes: [] })).toBe(TOKEN_MESSAGES.scopesRequired);
    expect(firstError({ name: 'ci', scopes: ['admin'] })).toBe(TOKEN_MESSAGES.scopeUnknown);
    expect(firstError({ name: 'ci', scopes: ['read', 'read'] })).toBe(TOKEN_MESSAGES.scopesRepeated);
    for (const expiresInDays of [0, 366, 1.5, '30', -1]) {
      expect(firstError({ name: 'ci', scopes: ['read'], expiresInDays })).toBe(TOKEN_MESSAGES.expiryInvalid);
    }
  });
});

describe('TOKEN_PATTERN', () => {
  it('is tp_ and 40 base62 characters', () => {
    expect(TOKEN_PATTERN.test(`tp_${'aZ9'.repeat(13)}x`)).toBe(true);
    expect(TOKEN_PATTERN.test(`tp_${'a'.repeat(39)}`)).toBe(false);
    expect(TOKEN_PATTERN.test(`tp_${'a'.repeat(39)}-`)).toBe(false);
    expect(TOKEN_PATTERN.test(`gh_${'a'.repeat(40)}`)).toBe(false);
  });
});

describe('token scopes and revocation', () => {
  it('offers private:read beside read and pastes:write, each with a one-line description', () => {
    expect(createTokenSchema.parse({ name: 'x', scopes: ['private:read'] }).scopes).toEqual(['private:read']);
    for (const scope of TOKEN_SCOPES) expect(TOKEN_SCOPE_DESCRIPTIONS[scope]).toMatch(/^[^\n]+$/);
  });

  it('lists a token with its revocation, and why', () => {
    const base = { id: 1, name: 'ci', scopes: ['read'], createdAt: 'x', lastUsedAt: null, expiresAt: null };
    expect(tokenSchema.parse({ ...base, revokedAt: 'y', revokedReason: 'password reset' })).toMatchObject({
      revokedReason: 'password reset',
    });
    expect(tokenSchema.safeParse({ ...base, revokedAt: 'y', revokedReason: 'because' }).success).toBe(false);
    expect(TOKEN_REVOKED_REASONS).toEqual(['password reset', 'password change', 'by you', 'ban']);
    expect(TOKEN_MESSAGES.unverified).toBe('Verify your e-mail address before making an access token');
  });
});
