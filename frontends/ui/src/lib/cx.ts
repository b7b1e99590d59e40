/** Joins class names, skipping empty and false values, so a component's own classes merge with the caller's. */
export function cx(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}
