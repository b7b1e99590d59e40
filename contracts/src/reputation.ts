import { z } from 'zod';
import { pasteRefSchema } from './visibility.js';

/* The reputation ledger: one row per point earned or lost, with its reason, so the total can be explained. */

/** Why points were earned or lost (what each reason means: docs/permissions.md). */
export const REPUTATION_REASONS = [
  'opening',
  'paste',
  'reply',
  'chat',
  'vote',
  'vote_undone',
  'post_deleted',
  'post_restored',
] as const;
export type ReputationReason = (typeof REPUTATION_REASONS)[number];

/** The reasons whose daily earnings are capped (the points they earn each UTC day, at most). */
export const CAPPED_REPUTATION_REASONS = ['paste', 'reply', 'chat', 'vote'] as const;
export type CappedReputationReason = (typeof CAPPED_REPUTATION_REASONS)[number];

/**
 * Points a member may earn a day (UTC) by each reason, beyond which a write earns nothing (its ledger
 * row says +0, cap reached): 10 pastes, 20 replies, 20 chat messages, 50 up-votes received. The
 * REPUTATION_DAILY_CAP_* settings change them.
 */
export const REPUTATION_DAILY_CAP_DEFAULTS: Record<CappedReputationReason, number> = {
  paste: 50,
  reply: 40,
  chat: 20,
  vote: 50,
};

/** Ledger rows per page. */
export const REPUTATION_LEDGER_PAGE_SIZE = 25;

export const REPUTATION_MESSAGES = {
  /** 403 of another member's ledger: it shows when they post, chat and are voted on. */
  ledgerPrivate: 'Only the member and admins can see this reputation ledger',
} as const;

/** UI texts of the ledger on the profile screen. */
export const REPUTATION_TEXTS = {
  title: 'REPUTATION LEDGER',
  empty: 'No reputation earned yet.',
  reasons: {
    opening: 'opening balance',
    paste: 'paste',
    reply: 'reply',
    chat: 'chat message',
    vote: 'vote received',
    vote_undone: 'vote withdrawn',
    post_deleted: 'post deleted',
    post_restored: 'post restored',
  } satisfies Record<ReputationReason, string>,
  capReached: 'daily cap reached',
} as const;

/** One ledger row as the API shows it: never who voted. */
export const reputationEntrySchema = z.object({
  id: z.number().int(),
  points: z.number().int(),
  reason: z.enum(REPUTATION_REASONS),
  /** The day's cap held back some or all of the points this write would have earned. */
  capped: z.boolean(),
  createdAt: z.string(),
  /**
   * The paste it was earned on (a paste, a reply to it, a vote on either) by its ref, while it exists and
   * the reader may read it; else null (and no title).
   */
  threadId: pasteRefSchema.nullable(),
  threadTitle: z.string().nullable(),
  /** The reply (itself, or the one voted on), while it exists; else null. */
  replyId: z.number().int().nullable(),
});
export type ReputationEntry = z.infer<typeof reputationEntrySchema>;

/** What a member has earned so far today (UTC) by each capped reason, and the caps. */
export const reputationTodaySchema = z.object({
  paste: z.object({ earned: z.number().int(), cap: z.number().int() }),
  reply: z.object({ earned: z.number().int(), cap: z.number().int() }),
  chat: z.object({ earned: z.number().int(), cap: z.number().int() }),
  vote: z.object({ earned: z.number().int(), cap: z.number().int() }),
});
export type ReputationToday = z.infer<typeof reputationTodaySchema>;

/**
 * `GET /api/users/{id}/reputation?cursor=`: the member's ledger, newest first, keyset-paged; for the
 * member and admins only (403 for anyone else). `total` is the member's reputation (the ledger's sum).
 */
export const reputationLedgerPageSchema = z.object({
  total: z.number().int(),
  today: reputationTodaySchema,
  entries: z.array(reputationEntrySchema),
  nextCursor: z.string().nullable(),
});
export type ReputationLedgerPage = z.infer<typeof reputationLedgerPageSchema>;

/** Whether `viewer` may read the ledger of member `userId`: their own, or any as an admin. */
export function canReadReputationLedger(
  viewer: { id: number; isAdmin: boolean } | null | undefined,
  userId: number,
): boolean {
  return !!viewer && (viewer.id === userId || viewer.isAdmin);
}
