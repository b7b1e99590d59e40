import { USERNAME } from '@termpaste/contracts';

/** Letters NFKD does not take apart, spelled in ASCII. */
const SPELLED: Record<string, string> = {
  ø: 'o',
  Ø: 'O',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ß: 'ss',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'Th',
  ð: 'd',
  Ð: 'D',
};

/** When no hint makes a username. */
export const FALLBACK_USERNAME = 'member';

/**
 * A provider's hint (preferred username, login, address or name) made a valid username, or undefined when
 * too little is left: the part before an `@`, accents dropped (ø, æ, ß… spelled out), other runs one `_`,
 * no `_` or `-` at the ends, at most USERNAME.max characters.
 */
export function usernameFrom(hint: string): string | undefined {
  const local = hint.includes('@') ? hint.slice(0, hint.indexOf('@')) : hint;
  const name = local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øØæÆœŒßđĐłŁþÞðÐ]/g, (letter) => SPELLED[letter]!)
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '')
    .slice(0, USERNAME.max)
    .replace(/[_-]+$/, '');
  return name.length >= USERNAME.min ? name : undefined;
}

/** The base name to propose: the first hint that makes a valid username, else FALLBACK_USERNAME. */
export function baseUsername(hints: readonly string[]): string {
  for (const hint of hints) {
    const name = usernameFrom(hint);
    if (name !== undefined) return name;
  }
  return FALLBACK_USERNAME;
}

/** `base` with a number after it (`ada_2`), cut so that the whole stays within USERNAME.max. */
export function numbered(base: string, n: number): string {
  const suffix = `_${n}`;
  return `${base.slice(0, USERNAME.max - suffix.length).replace(/[_-]+$/, '')}${suffix}`;
}

/** The names to try for `base`, in order: itself, then `base_2` … `base_{count}`. */
export function usernameCandidates(base: string, count: number): string[] {
  return [base, ...Array.from({ length: count - 1 }, (_, i) => numbered(base, i + 2))];
}
