import type { PersonEntry, PublicAuthor, SpamMark as SpamMarkShape } from '@termpaste/contracts';
import { SPAM_MARK_HASH_PREFIX } from '@termpaste/contracts';
import type { Row } from '../../infra/database/columns.js';
import type { Mute } from './entities/mute.entity.js';
import type { SpamMark } from './entities/spam-mark.entity.js';

/** An entry of a member's mutes or blocks (both tables have the same columns), with the member. */
export type EntryRow = Row<Mute, 'createdAt'> & { member: PublicAuthor };

export function toEntry({ createdAt, ...row }: EntryRow): PersonEntry {
  return { ...row, createdAt: createdAt.toISOString() };
}

/** A spam mark, in SpamMark's order, with its position for the cursor. */
export const MARK_COLUMNS = ['id', 'kind', 'value', 'createdAt', 'spammer'] as const;
export type MarkRow = Row<SpamMark, (typeof MARK_COLUMNS)[number]> & { createdMicros: string };

/** What staff see of a mark's value: a domain as it is, an address hash by its first characters only. */
export const shownValue = (mark: Pick<SpamMark, 'kind' | 'value'>): string =>
  mark.kind === 'address' ? mark.value.slice(0, SPAM_MARK_HASH_PREFIX) : mark.value;

export function toSpamMark({ createdMicros: _cursor, ...row }: MarkRow): SpamMarkShape {
  return { ...row, value: shownValue(row), createdAt: row.createdAt.toISOString() };
}
