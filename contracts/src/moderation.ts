import { z } from 'zod';
import { publicAuthorSchema } from './paste-views.js';
import { ID_MAX, storableText } from './text.js';
import { PASTE_KEY_PATTERN, pasteRefSchema } from './visibility.js';
import { PEOPLE_LIST_MAX } from './people.js';

/*
 * Moderation at community scale: members flag what is wrong, flags weighted by each flagger's record
 * hide an item pending review, staff decide in one review queue (which also holds the posts held for
 * approval), suspensions and silences end by themselves, and members mute and block one another.
 */

/** What a member may flag. */
export const FLAG_TARGETS = ['paste', 'reply', 'chat', 'message', 'member'] as const;
export type FlagTarget = (typeof FLAG_TARGETS)[number];

/** Why. `other` needs a note. */
export const FLAG_REASONS = ['spam', 'abuse', 'secret', 'illegal', 'off-topic', 'other'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** How each reason reads in the forms and the queue. */
export const FLAG_REASON_LABELS: Record<FlagReason, string> = {
  spam: 'Spam',
  abuse: 'Abuse or harassment',
  secret: 'A leaked secret or personal data',
  illegal: 'Illegal content',
  'off-topic': 'Off-topic',
  other: 'Something else',
};

/** A flag's note, at most. */
export const FLAG_NOTE_MAX = 500;

/** A suspension's or a silence's reason, at most. */
export const SUSPENSION_REASON_MAX = 500;
/** The longest timed suspension or silence, in days (a ban without `days` is for ever). */
export const SUSPENSION_DAYS_MAX = 3650;
/** The durations the admin screens offer, in days; null: for ever. */
export const SUSPENSION_CHOICES: ReadonlyArray<{ days: number | null; label: string }> = [
  { days: 1, label: '1 day' },
  { days: 3, label: '3 days' },
  { days: 7, label: '1 week' },
  { days: 30, label: '1 month' },
  { days: 365, label: '1 year' },
  { days: null, label: 'Forever' },
];

/** Review queue items per page. */
export const REVIEW_PAGE_SIZE = 30;

/**
 * Why a post was held or hidden without a member's flag: a new member's first posts, the same text from
 * several accounts within an hour, a first post of mostly links, a burst from a brand-new account, a
 * deleted spammer's address or domain, the Akismet check (docs/moderation.md, "New members and spam").
 */
export const SPAM_SIGNALS = [
  'first-posts',
  'duplicate',
  'links',
  'burst',
  'known-spammer',
  'akismet',
] as const;
export type SpamSignal = (typeof SPAM_SIGNALS)[number];

export const SPAM_SIGNAL_LABELS: Record<SpamSignal, string> = {
  'first-posts': "A new member's first post",
  duplicate: 'The same text from several accounts within an hour',
  links: 'A first post that is mostly links',
  burst: 'A burst of posts from a brand-new account',
  'known-spammer': 'The address of a deleted spammer',
  akismet: 'Akismet says spam',
};

/**
 * The weight of one member's flag, by their record with staff: `(agreed + 2) / (disagreed + 2)`, kept
 * between 0.25 and 3. A verified member with no record counts 1; each flag staff agreed with adds, each
 * they rejected takes away (ignored flags count neither way).
 */
export function flagWeight(record: { agreed: number; disagreed: number }): number {
  const weight = (record.agreed + 2) / (record.disagreed + 2);
  return Math.min(3, Math.max(0.25, weight));
}

/** The default score at which a flagged item is hidden pending review: three members with no record. */
export const FLAG_HIDE_THRESHOLD_DEFAULT = 3;

export const MODERATION_MESSAGES = {
  targetTypeInvalid: `Target type must be one of: ${FLAG_TARGETS.join(', ')}`,
  targetIdInvalid: "Target id must be a positive whole number, or a paste's key",
  keyOnlyForPastes: 'Only a paste is named by a key: give this target by its number',
  reasonInvalid: `Reason must be one of: ${FLAG_REASONS.join(', ')}`,
  noteRequired: 'Say what is wrong (a note is required for "something else")',
  noteTooLong: `Note must be at most ${FLAG_NOTE_MAX} characters`,
  alreadyFlagged: 'You already flagged this',
  ownPost: 'You cannot flag your own post',
  self: 'You cannot flag yourself',
  targetNotFound: 'Nothing to flag there: it does not exist or was deleted',
  flagsRateLimited: 'You are flagging too fast. Try again later.',
  itemNotFound: 'Review item not found',
  itemDecided: 'This item was already decided',
  decisionInvalid: 'Decision must be one of: agree, disagree, ignore, approve, reject',
  decisionForFlags: 'Agree, disagree and ignore decide flagged items; held posts take approve or reject',
  decisionForHeld: 'Approve and reject decide held posts; flagged items take agree, disagree or ignore',
  deletePostInvalid: 'deletePost must be true or false',
  daysInvalid: `Days must be a whole number from 1 to ${SUSPENSION_DAYS_MAX}`,
  reasonRequired: 'A reason is required',
  reasonTooLong: `Reason must be at most ${SUSPENSION_REASON_MAX} characters`,
  silenceNeedsDays: 'A silence needs a number of days',
  userNotFound: 'Member not found',
  muteSelf: 'You cannot mute yourself',
  blockSelf: 'You cannot block yourself',
  blockStaff: 'Staff cannot be blocked',
  listFull: `You can keep at most ${PEOPLE_LIST_MAX} members in this list`,
  blockedYou: 'This member does not accept messages from you',
  tooManyLinks: (max: number) => `New members may post at most ${max} links in a post`,
  held: 'Your post is held for review by the staff; you will be told when it is decided',
  newUserTooFast: (seconds: number) =>
    `New members may post only a few times an hour. Try again in ${seconds} seconds.`,
  heldPasteGone: 'The paste this reply was for is gone: reject it instead',
  heldAuthorGone: "The author's account is gone: reject it instead",
  pasteHidden: 'This paste is hidden pending review',
  spamMarkNotFound: 'Spam mark not found',
} as const;

export const MODERATION_TEXTS = {
  flag: 'FLAG',
  flagged: 'FLAGGED',
  flagTitle: 'Flag for the staff',
  flagSent: 'Flag sent. The staff will review it.',
  hiddenPendingReview: 'hidden pending review',
  /** To the author of a hidden post. */
  hiddenOwn: 'Hidden pending review after flags by members. You can still edit it; staff will decide.',
  heldOwn: 'Held for review by the staff',
  review: 'REVIEW',
  agree: 'AGREE',
  disagree: 'DISAGREE',
  ignore: 'IGNORE',
  approve: 'APPROVE',
  reject: 'REJECT',
  silence: 'SILENCE',
  deleteSpammer: 'DELETE SPAMMER',
  spammerDeleted: 'Spammer deleted',
  silencedToast: 'User silenced',
  unsilencedToast: 'User unsilenced',
  spamMarks: 'SPAM MARKS',
  spamMarksIntro:
    'What DELETE SPAMMER remembered: the address (its hash) and the domain of each deleted spammer. A new ' +
    "member's posts that match are held for review. FORGET one that holds honest members.",
  spamMarksEmpty: 'No spam marks: no spammer was deleted, or every mark was forgotten.',
  spamMarksLoadFailed: 'Could not load the spam marks. Try again in a moment.',
  forget: 'FORGET',
  forgetTitle: 'Forget this spam mark?',
  forgetDetail: 'Posts from this address or domain are no longer held for it. Recorded in the audit log.',
  spamMarkForgotten: 'Spam mark forgotten',
  forgetFailed: 'Failed to forget the spam mark',
} as const;

/** What spam_marks remembers of a deleted spammer: the hash of their address, or its domain. */
export const SPAM_MARK_KINDS = ['address', 'domain'] as const;
export type SpamMarkKind = (typeof SPAM_MARK_KINDS)[number];
/** How many characters of an address's hash the screen shows (the hash itself is of no use to staff). */
export const SPAM_MARK_HASH_PREFIX = 12;
export const SPAM_MARKS_PAGE_SIZE = 50;

/** One mark of `GET /api/admin/spam-marks`. */
export const spamMarkSchema = z.object({
  id: z.number().int(),
  kind: z.enum(SPAM_MARK_KINDS),
  /** The domain; for an address, the first SPAM_MARK_HASH_PREFIX hex characters of its SHA-256. */
  value: z.string(),
  createdAt: z.string(),
  /** The username of the deleted spammer it came from; null when not known (a mark made before it was kept). */
  spammer: z.string().nullable(),
});
export type SpamMark = z.infer<typeof spamMarkSchema>;

/** `GET /api/admin/spam-marks?cursor=`: newest first, keyset-paged. */
export const spamMarksPageSchema = z.object({
  marks: z.array(spamMarkSchema),
  nextCursor: z.string().nullable(),
});
export type SpamMarksPage = z.infer<typeof spamMarksPageSchema>;

/** What a held post's author is told (a notification) when staff decided it. */
export function heldDecidedNotice(
  held: { kind: 'paste' | 'reply'; title: string | null; content: string },
  decision: 'approve' | 'reject',
): string {
  const what =
    held.kind === 'paste'
      ? `Your paste "${held.title ?? ''}"`
      : `Your reply "${held.content.replace(/\s+/g, ' ').trim().slice(0, 60)}"`;
  return `${what} was ${decision === 'approve' ? 'approved' : 'rejected'} by the staff`;
}

/** What the author of a post a spam signal hid (Akismet) is told. */
export function signalHiddenNotice(kind: 'paste' | 'reply', title: string | null): string {
  const what = kind === 'paste' ? `Your paste "${title ?? ''}"` : 'Your reply';
  return `${what} is hidden pending review by the staff (an automatic spam check flagged it)`;
}

const note = z.preprocess(
  storableText,
  z.string(MODERATION_MESSAGES.noteTooLong).trim().max(FLAG_NOTE_MAX, MODERATION_MESSAGES.noteTooLong),
);

/** `POST /api/flags`: 201 with the flag; 409 when the member already flagged the item. */
export const flagCreateSchema = z
  .object({
    targetType: z.enum(FLAG_TARGETS, { error: MODERATION_MESSAGES.targetTypeInvalid }),
    // A paste by its ref: its number while public, else its key (the only name its readers know).
    targetId: z.union(
      [
        z
          .number()
          .int(MODERATION_MESSAGES.targetIdInvalid)
          .positive(MODERATION_MESSAGES.targetIdInvalid)
          .max(ID_MAX, MODERATION_MESSAGES.targetIdInvalid),
        z.string().regex(PASTE_KEY_PATTERN, MODERATION_MESSAGES.targetIdInvalid),
      ],
      { error: MODERATION_MESSAGES.targetIdInvalid },
    ),
    reason: z.enum(FLAG_REASONS, { error: MODERATION_MESSAGES.reasonInvalid }),
    note: note.optional(),
  })
  .refine((flag) => typeof flag.targetId === 'number' || flag.targetType === 'paste', {
    message: MODERATION_MESSAGES.keyOnlyForPastes,
    path: ['targetId'],
  })
  .refine((flag) => flag.reason !== 'other' || (flag.note ?? '') !== '', {
    message: MODERATION_MESSAGES.noteRequired,
    path: ['note'],
  });
export type FlagCreate = z.infer<typeof flagCreateSchema>;

export const FLAG_STATUSES = ['open', 'agreed', 'disagreed', 'ignored'] as const;
export type FlagStatus = (typeof FLAG_STATUSES)[number];

/** One of the member's own flags (`POST /api/flags`, `GET /api/flags/mine`). */
export const myFlagSchema = z.object({
  id: z.number().int(),
  targetType: z.enum(FLAG_TARGETS),
  /** A paste's is its ref, as the member flagged it (its key unless public). */
  targetId: z.union([z.number().int(), z.string()]),
  reason: z.enum(FLAG_REASONS),
  note: z.string().nullable(),
  /** Open until staff decide; then what they decided. */
  status: z.enum(FLAG_STATUSES),
  createdAt: z.string(),
});
export type MyFlag = z.infer<typeof myFlagSchema>;

/** `GET /api/flags/mine`: the member's flags, newest first (the last 500). */
export const myFlagsSchema = z.object({ flags: z.array(myFlagSchema) });
export type MyFlags = z.infer<typeof myFlagsSchema>;

export const REVIEW_KINDS = ['flagged', 'held'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];
export const REVIEW_STATUSES = ['open', 'agreed', 'disagreed', 'ignored', 'approved', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_DECISIONS = ['agree', 'disagree', 'ignore', 'approve', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** One flag as staff see it in the queue. */
export const reviewFlagSchema = z.object({
  id: z.number().int(),
  reason: z.enum(FLAG_REASONS),
  note: z.string().nullable(),
  /** Null: the flagger's account is gone. */
  flagger: publicAuthorSchema.nullable(),
  /** What the flag counted, by the flagger's record when they flagged. */
  weight: z.number(),
  createdAt: z.string(),
});
export type ReviewFlag = z.infer<typeof reviewFlagSchema>;

/**
 * The item under review, rendered as members see it: a paste (title, content, language), a reply or a
 * chat or private message (content), or a member (their name; content is their bio, if any). A held post
 * is shown as it was submitted (it has no id until approved). `gone`: deleted since.
 */
export const reviewTargetSchema = z.object({
  title: z.string().nullable(),
  content: z.string(),
  language: z.string().nullable(),
  /** The paste it is or is on (its ref); null for chat, messages, members and held pastes. */
  threadRef: pasteRefSchema.nullable(),
  /** The reply's parent reply, for a held reply. */
  parentId: z.number().int().nullable(),
  createdAt: z.string(),
  gone: z.boolean(),
});
export type ReviewTarget = z.infer<typeof reviewTargetSchema>;

/** What staff know of the author when they decide. */
export const authorHistorySchema = z.object({
  joinedAt: z.string(),
  pastes: z.number().int(),
  replies: z.number().int(),
  /** Flags on their posts staff agreed with. */
  flagsAgreed: z.number().int(),
  /** Suspensions and silences so far. */
  suspensions: z.number().int(),
  bannedUntil: z.string().nullable(),
  isBanned: z.boolean(),
  silencedUntil: z.string().nullable(),
});
export type AuthorHistory = z.infer<typeof authorHistorySchema>;

/** One row of the review queue (`GET /api/admin/review`). */
export const reviewItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(REVIEW_KINDS),
  targetType: z.enum(FLAG_TARGETS),
  /** The flagged item's id; a held post's once approved (null until then). */
  targetId: z.number().int().nullable(),
  status: z.enum(REVIEW_STATUSES),
  /** The flags' weights summed. */
  score: z.number(),
  /** Hidden pending review (the score passed the threshold, or a signal such as Akismet hid it). */
  hidden: z.boolean(),
  /** Why it is here without (only) members' flags: the spam signals that held or hid it. */
  signals: z.array(z.enum(SPAM_SIGNALS)),
  target: reviewTargetSchema,
  author: publicAuthorSchema.nullable(),
  history: authorHistorySchema.nullable(),
  flags: z.array(reviewFlagSchema),
  createdAt: z.string(),
  /** Its last flag or signal: the queue is newest first by this. */
  updatedAt: z.string(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** `GET /api/admin/review?kind=&reason=&cursor=`: open items, newest first, keyset-paged. */
export const reviewPageSchema = z.object({
  items: z.array(reviewItemSchema),
  nextCursor: z.string().nullable(),
  /** Every open item (the navigation's count). */
  openCount: z.number().int(),
});
export type ReviewPage = z.infer<typeof reviewPageSchema>;

export const reviewQuerySchema = z.object({
  kind: z
    .enum(REVIEW_KINDS, { error: `Kind must be one of: ${REVIEW_KINDS.join(', ')}` })
    .optional()
    .meta({ description: 'Only flagged items, or only posts held for approval' }),
  targetType: z
    .enum(FLAG_TARGETS, { error: MODERATION_MESSAGES.targetTypeInvalid })
    .optional()
    .meta({ description: 'Only items about pastes, replies, chat messages, private messages or members' }),
  reason: z
    .enum(FLAG_REASONS, { error: MODERATION_MESSAGES.reasonInvalid })
    .optional()
    .meta({ description: 'Only items with a flag for this reason' }),
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: 'Where the previous page ended (its `nextCursor`); absent for the first page' }),
});
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;

const days = z
  .number(MODERATION_MESSAGES.daysInvalid)
  .int(MODERATION_MESSAGES.daysInvalid)
  .min(1, MODERATION_MESSAGES.daysInvalid)
  .max(SUSPENSION_DAYS_MAX, MODERATION_MESSAGES.daysInvalid);
const reason = z.preprocess(
  storableText,
  z
    .string(MODERATION_MESSAGES.reasonRequired)
    .trim()
    .min(1, MODERATION_MESSAGES.reasonRequired)
    .max(SUSPENSION_REASON_MAX, MODERATION_MESSAGES.reasonTooLong),
);

/** `POST /api/admin/review/{itemId}`: the decision, with an optional suspension or silence of the author. */
export const reviewDecisionSchema = z.object({
  decision: z.enum(REVIEW_DECISIONS, { error: MODERATION_MESSAGES.decisionInvalid }),
  /**
   * With `agree` on a paste, a reply or a chat message: delete it (to the trash, for a post) rather than
   * keep it hidden. Ignored for the other decisions, members and private messages.
   */
  deletePost: z.boolean(MODERATION_MESSAGES.deletePostInvalid).optional(),
  suspendDays: days.optional(),
  silenceDays: days.optional(),
  reason: reason.optional(),
});
export type ReviewDecisionBody = z.infer<typeof reviewDecisionSchema>;

/**
 * `POST /api/admin/users/{id}/ban`: empty (a ban for ever, as the spec has it), or `{days?, reason?}`.
 */
export const banBodySchema = z
  .object({ days: days.optional(), reason: reason.optional() })
  .optional()
  .transform((body) => body ?? {});
/** banBodySchema's fields, for the API document (the body may be left out). */
export const banTermsSchema = z.object({
  /** Whole days, 1 to SUSPENSION_DAYS_MAX; left out: for ever. */
  days: days.optional(),
  reason: reason.optional(),
});
export type BanBody = z.infer<typeof banBodySchema>;

/** `POST /api/admin/users/{id}/silence` {days, reason}. */
export const silenceBodySchema = z.object({
  days: z.number(MODERATION_MESSAGES.silenceNeedsDays).pipe(days),
  reason,
});
export type SilenceBody = z.infer<typeof silenceBodySchema>;

/** What sign-in, the current user and the admin table say of a suspension (null when there is none). */
export const suspensionSchema = z.object({
  kind: z.enum(['ban', 'silence']),
  /** Null: for ever. */
  until: z.string().nullable(),
  reason: z.string().nullable(),
});
export type Suspension = z.infer<typeof suspensionSchema>;

/** The sign-in refusal of a banned member: when it ends and why. */
export function bannedMessage(until: Date | null, reason: string | null): string {
  const when = until ? `until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'permanently';
  return `Your account is suspended ${when}${reason ? `. Reason: ${reason}` : ''}`;
}

/** The refusal a silenced member meets when they try to write. */
export function silencedMessage(until: Date | null, reason: string | null): string {
  const when = until ? ` until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
  return `Your account is silenced${when}: you can read and contact support, nothing else${
    reason ? `. Reason: ${reason}` : ''
  }`;
}
