import { passwordProblem } from './auth.js';
import { changePasswordSchema, registerSchema } from './auth.js';

describe('password rules', () => {
  it('wants the two fields to match', () => {
    expect(passwordProblem('password1', 'password2')).toBe('Passwords do not match');
    expect(passwordProblem('password1', 'password2', 'change')).toBe('New passwords do not match');
  });

  it('wants at least 8 characters', () => {
    expect(passwordProblem('short', 'short')).toBe('Password must be at least 8 characters');
    expect(passwordProblem('short', 'short', 'change')).toBe('New password must be at least 8 characters');
  });

  it('accepts a matching pair of 8 or more', () => {
    expect(passwordProblem('12345678', '12345678')).toBeNull();
  });
});

describe('request schemas', () => {
  it('explains a bad username', () => {
    const result = registerSchema.safeParse({ username: 'a b', email: 'a@b.io', password: '12345678' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Username may contain only letters, digits, _ and -');
  });

  it('bounds usernames to 3–32 characters and trims them', () => {
    expect(registerSchema.safeParse({ username: 'ab', email: 'a@b.io', password: '12345678' }).success).toBe(
      false,
    );
    expect(
      registerSchema.safeParse({ username: 'a'.repeat(33), email: 'a@b.io', password: '12345678' }).success,
    ).toBe(false);
    expect(
      registerSchema.parse({ username: ' neo ', email: ' A@b.io ', password: '12345678' }),
    ).toMatchObject({
      username: 'neo',
      email: 'A@b.io',
    });
  });

  it('wants 8 to 256 characters of password', () => {
    const short = changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'short' });
    expect(short.error?.issues[0]?.message).toBe('New password must be at least 8 characters');
    const long = registerSchema.safeParse({ username: 'neo', email: 'a@b.io', password: 'x'.repeat(257) });
    expect(long.error?.issues[0]?.message).toBe('Password must be at most 256 characters');
  });
});
