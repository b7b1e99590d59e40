import type {
  AuthorHistory,
  MyFlag,
  PublicAuthor,
  ReviewFlag,
  ReviewItem as ReviewItemShape,
  ReviewTarget,
} from '@termpaste/contracts';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { Flag } from './entities/flag.entity.js';
import { ReviewItem } from './entities/review-item.entity.js';

/** A member's own flag, in MyFlag's order. */
export const FLAG_COLUMNS = [
  'id',
  'targetType',
  'targetId',
  'reason',
  'note',
  'status',
  'createdAt',
] as const;
export type FlagRow = Row<Flag, (typeof FLAG_COLUMNS)[number]>;

/** `alias`'s FLAG_COLUMNS (`flags` in a RETURNING list). */
export const flagColumns = (alias: string): string => selectColumns(Flag, alias, FLAG_COLUMNS);

export function toMyFlag({ createdAt, ...row }: FlagRow): MyFlag {
  return { ...row, createdAt: createdAt.toISOString() };
}

/** A flag as staff see it in the queue, with its flagger. */
export const REVIEW_FLAG_COLUMNS = ['id', 'itemId', 'reason', 'note', 'weight', 'createdAt'] as const;
export type ReviewFlagRow = Row<Flag, (typeof REVIEW_FLAG_COLUMNS)[number]> & {
  flagger: PublicAuthor | null;
};

export function toReviewFlag({ id, reason, note, flagger, weight, createdAt }: ReviewFlagRow): ReviewFlag {
  return { id, reason, note, flagger, weight, createdAt: createdAt.toISOString() };
}

/** A review item, with its position in the queue (updated_at in microseconds) for the cursor. */
const ITEM_COLUMNS = [
  'id',
  'kind',
  'targetType',
  'targetId',
  'authorId',
  'status',
  'score',
  'hidden',
  'signals',
  'payload',
  'createdAt',
  'updatedAt',
] as const;
export type ItemRow = Row<ReviewItem, (typeof ITEM_COLUMNS)[number]> & { updatedMicros: string };

/** ItemRow's SELECT list, with the item as `i`. */
export const ITEM_SELECT = `${selectColumns(ReviewItem, 'i', ITEM_COLUMNS)},
  (extract(epoch FROM i.updated_at) * 1000000)::bigint::text AS "updatedMicros"`;

/** What the queue shows of an item beside its row. */
export interface ItemParts {
  target: ReviewTarget;
  author: PublicAuthor | null;
  history: AuthorHistory | null;
  flags: ReviewFlag[];
}

export function toReviewItem(row: ItemRow, parts: ItemParts): ReviewItemShape {
  const {
    authorId: _author,
    payload: _payload,
    updatedMicros: _cursor,
    createdAt,
    updatedAt,
    ...shown
  } = row;
  return { ...shown, ...parts, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}
