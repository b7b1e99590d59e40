import { passwordProblem } from './password-rules';

describe('password rules of SPEC §5', () => {
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
