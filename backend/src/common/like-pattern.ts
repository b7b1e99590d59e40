/**
 * A LIKE pattern that matches `text` literally anywhere, lower-cased for a `lower(column) LIKE` filter
 * (`% _ \` are escaped; `\` is LIKE's default escape character).
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}
