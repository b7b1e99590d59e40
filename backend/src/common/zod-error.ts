import type { ZodError } from 'zod';

/** One readable line per problem, naming the field: `title: Too small: expected string to have >=1 characters`. */
export function describeZodError(error: Pick<ZodError, 'issues'>, subject = 'value'): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.map(String).join('.') : subject;
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}
