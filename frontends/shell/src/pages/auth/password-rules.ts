import { LIMITS } from '@termpaste/contracts';

/** The client-side password checks of SPEC §5, or null when the pair is fine. */
export function passwordProblem(
  password: string,
  confirmation: string,
  form: 'new' | 'change' = 'new',
): string | null {
  if (password !== confirmation)
    return form === 'change' ? 'New passwords do not match' : 'Passwords do not match';
  if (password.length < LIMITS.passwordMin) {
    return form === 'change'
      ? `New password must be at least ${LIMITS.passwordMin} characters`
      : `Password must be at least ${LIMITS.passwordMin} characters`;
  }
  return null;
}
