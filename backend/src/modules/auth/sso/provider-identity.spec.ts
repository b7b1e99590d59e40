import { githubIdentity, oidcIdentity } from './provider-identity.js';

describe('provider identities', () => {
  describe('OpenID Connect', () => {
    it('takes the subject of the ID token and the other claims from UserInfo first', () => {
      expect(
        oidcIdentity(
          'kc',
          { sub: 'abc', email: 'old@example.com', preferred_username: 'ada' },
          { sub: 'abc', email: 'ada@example.com', email_verified: true, name: 'Ada L' },
        ),
      ).toEqual({
        provider: 'kc',
        subject: 'abc',
        email: 'ada@example.com',
        emailVerified: true,
        usernameHints: ['ada', 'ada@example.com', 'Ada L'],
      });
    });

    it.each([
      [true, true],
      ['true', true],
      [false, false],
      ['false', false],
      [undefined, false],
      [1, false],
    ])('counts email_verified %j as %j', (claim, verified) => {
      expect(
        oidcIdentity('kc', { sub: 's', email: 'a@example.com', email_verified: claim }).emailVerified,
      ).toBe(verified);
    });

    it('has no e-mail (and nothing verified) when the provider gives none', () => {
      expect(oidcIdentity('kc', { sub: 's', email_verified: true, nickname: ' nick ' })).toMatchObject({
        email: null,
        emailVerified: false,
        usernameHints: ['nick'],
      });
    });
  });

  describe('GitHub', () => {
    it('takes the primary address of /user/emails, verified when GitHub says so', () => {
      expect(
        githubIdentity({
          id: '42',
          username: 'octocat',
          displayName: 'The Octocat',
          emails: [
            { value: 'second@example.com', primary: false, verified: true },
            { value: 'primary@example.com', primary: true, verified: true },
          ],
        }),
      ).toEqual({
        provider: 'github',
        subject: '42',
        email: 'primary@example.com',
        emailVerified: true,
        usernameHints: ['octocat', 'primary@example.com', 'The Octocat'],
      });
    });

    it('counts an unverified primary, or an address without flags, as unverified', () => {
      const unverified = githubIdentity({
        id: '1',
        emails: [{ value: 'p@example.com', primary: true, verified: false }],
      });
      expect(unverified).toMatchObject({ email: 'p@example.com', emailVerified: false });
      const public_ = githubIdentity({ id: '1', username: 'x', emails: [{ value: 'public@example.com' }] });
      expect(public_).toMatchObject({ email: 'public@example.com', emailVerified: false });
      expect(githubIdentity({ id: '1', username: 'x' })).toMatchObject({ email: null, emailVerified: false });
    });
  });
});
