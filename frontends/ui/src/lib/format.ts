import { relativeTimeFrom } from './relative-time.js';

/** The fields an avatar and its initials are drawn from; any of them may be missing. */
export interface AvatarUser {
  avatarUrl?: string | null;
  profileImageUrl?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  /** Public authors carry no e-mail: their username stands in for it. */
  username?: string | null;
}

/** The first character of a trimmed text (a whole code point, so an emoji stays intact), or ''. */
function firstLetter(text: string | null | undefined): string {
  return Array.from(text?.trim() ?? '')[0] ?? '';
}

/**
 * Avatar initials: first letters of first and last name, else of the first name, else of the e-mail
 * (the username for public authors), else `?`. Upper-cased; blank fields count as missing.
 */
export function initials(user: AvatarUser | null | undefined): string {
  const first = firstLetter(user?.firstName);
  const last = firstLetter(user?.lastName);
  if (first && last) return (first + last).toUpperCase();
  if (first) return first.toUpperCase();
  return (firstLetter(user?.email) || firstLetter(user?.username)).toUpperCase() || '?';
}

/** 'about 2 hours ago' for a date, 'never' for no date or an invalid one. */
export function relativeTime(date: string | Date | null | undefined): string {
  if (date === null || date === undefined || date === '') return 'never';
  const value = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(value.getTime())) return 'never';
  return relativeTimeFrom(value, new Date());
}

/**
 * The part of an e-mail before the @ (the sidebar footer and thread cards show it). Returns `fallback`
 * for a missing or blank e-mail, so callers write `emailPrefix(user?.email, 'Guest')`.
 */
export function emailPrefix(email: string | null | undefined, fallback = ''): string {
  const trimmed = email?.trim() ?? '';
  const at = trimmed.indexOf('@');
  const prefix = at === -1 ? trimmed : trimmed.slice(0, at);
  return prefix || fallback;
}

// date-fns's `format` would bring every token's formatter for this one pattern; Intl has it built in.
const SHORT_DATE = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** A calendar date like 'Jan 5, 2026' (profiles, the members list); '' for an invalid date. */
export function shortDate(date: string | Date): string {
  const value = date instanceof Date ? date : new Date(date);
  return Number.isNaN(value.getTime()) ? '' : SHORT_DATE.format(value);
}
