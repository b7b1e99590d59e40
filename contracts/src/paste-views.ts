import { z } from 'zod';
import { HOT_PASTE, LIMITS } from './limits.js';
import { lineAnchorSchema, suggestionSchema } from './line-comments.js';
import { effectiveRank, type Rank } from './ranks.js';
import { pasteSignatureSchema, signatureFieldSchema } from './signing.js';
import { tagsSchema } from './tags.js';
import { rowId, storableText } from './text.js';
import { expiresInSchema, pasteRefSchema, visibilitySchema } from './visibility.js';

/** Content of a paste or reply: at most this many characters. */
export const CONTENT_MAX = 100_000;
/** Pastes per page of the recent list and of search results. */
export const PASTES_PAGE_SIZE = 50;
/** Home lists the newest this many pinned pastes above the others (pinning more unpins none). */
export const PINNED_MAX = 20;
/** `GET /api/threads/featured` (Hardest Posts): the newest this many featured pastes. */
export const FEATURED_MAX = 100;
/** Members per page of the users directory. */
export const USERS_PAGE_SIZE = 50;
/** A users-directory name filter: at most this many characters. */
export const USER_FILTER_MAX = 64;
/**
 * A search's words: at most this many characters (after trimming), room for any sensible query (a
 * long error line, a few quoted phrases) while bounding what one request makes the database parse.
 */
export const SEARCH_QUERY_MAX = 200;

export const POST_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: `Title must be at most ${LIMITS.titleMax} characters`,
  contentRequired: 'Content is required',
  contentTooLong: `Content must be at most ${CONTENT_MAX} characters`,
  pasteNotFound: 'Thread not found',
  replyNotFound: 'Reply not found',
  userNotFound: 'User not found',
  pasteLocked: 'Thread is locked',
  parentNotInPaste: 'Parent reply does not belong to this thread',
  searchQueryRequired: 'Search query is required',
  searchQueryTooLong: `Search query must be at most ${SEARCH_QUERY_MAX} characters`,
  /** 429 of search, per client address (RATE_LIMIT_SEARCH_PER_MINUTE). */
  searchTooFast: (seconds: number) =>
    `You are searching too fast. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  adminRequired: 'Admin privileges required',
  banned: 'Your account is banned',
  voteTarget: 'Vote for exactly one of threadId or replyId',
  /** 429 of pastes and replies (one count each, see POST_RATE_LIMIT_DEFAULTS). */
  postTooFast: (seconds: number) =>
    `You are posting too fast. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  /** 429 of edits (a paste's or a reply's, one count each). */
  editTooFast: (seconds: number) =>
    `You are editing too fast. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  voteTooFast: (seconds: number) =>
    `You are voting too fast. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  /** 429 of a paste or reply whose @mentions would pass the hourly mention limit. */
  mentionsTooMany: (seconds: number) =>
    `You have mentioned too many members. Try again in ${seconds} second${seconds === 1 ? '' : 's'}, or post without @mentions.`,
} as const;

/**
 * Per-member write limits (RATE_LIMIT_PASTES_PER_MINUTE and the others), against floods and reputation
 * farming. @mentions in a paste or reply count against `mentionsPerHour` (at most MENTIONS_PER_POST_MAX a
 * post).
 */
export const POST_RATE_LIMIT_DEFAULTS = {
  pastesPerMinute: 3,
  pastesPerHour: 20,
  repliesPerMinute: 6,
  repliesPerHour: 60,
  votesPerMinute: 30,
  votesPerHour: 300,
  mentionsPerHour: 60,
  /** Edits of pastes and replies together, per member and per address, an hour. */
  editsPerHour: 30,
  editsPerAddressPerHour: 60,
} as const;

/** Content is kept as written (leading indentation matters in a paste); it must not be blank. */
const nonBlank = z
  .string(POST_MESSAGES.contentRequired)
  .refine((value) => value.trim().length > 0, POST_MESSAGES.contentRequired);
/** A reply's content: at most CONTENT_MAX characters. */
const content = z.preprocess(
  storableText,
  nonBlank.refine((value) => value.length <= CONTENT_MAX, POST_MESSAGES.contentTooLong),
);
/**
 * A paste's content: its size is the server's to judge (PASTE_MAX_BYTES of UTF-8, 1 MiB by default:
 * PASTE_MESSAGES.tooLarge), the same on the web form and `POST /api/pastes`.
 */
const pasteContent = z.preprocess(storableText, nonBlank);

export const createPasteSchema = z.object({
  title: z.preprocess(
    storableText,
    z
      .string(POST_MESSAGES.titleRequired)
      .trim()
      .min(1, POST_MESSAGES.titleRequired)
      .max(LIMITS.titleMax, POST_MESSAGES.titleTooLong),
  ),
  content: pasteContent,
  /**
   * How the paste page shows the content: a highlight.js language name or alias (the server stores its
   * canonical name; an unknown one is a 400), or absent, null or `markdown` for Markdown.
   */
  language: z.string().nullable().optional(),
  /** Who may read it (visibility.ts); absent: `public`. */
  visibility: visibilitySchema.optional(),
  /** How long it lives (EXPIRES_IN); absent: `never`. */
  expiresIn: expiresInSchema.optional(),
  /** Deleted the moment its first reader other than its author is shown it; replies are off. */
  burnAfterReading: z.boolean('burnAfterReading must be true or false').optional(),
  /** Its tags (tagsSchema): at most TAGS_PER_PASTE_MAX; absent: none (on an edit: unchanged). */
  tags: tagsSchema.optional(),
  /**
   * An SSH signature of the content's exact UTF-8 bytes (`ssh-keygen -Y sign -n termpaste`, armoured) by
   * one of the author's SSH keys: checked when the paste is made (422 when it does not match).
   */
  signature: signatureFieldSchema.optional(),
});
export type CreatePasteBody = z.infer<typeof createPasteSchema>;

/**
 * `POST /api/threads/{id}/fork`: a new paste from the one `{id}` names, each field as in
 * createPasteSchema and each optional: the original's title, content and language unless given; public,
 * never expiring and not burning unless given.
 */
export const forkBodySchema = createPasteSchema.partial();
export type ForkBody = z.infer<typeof forkBodySchema>;

export const createReplySchema = z.object({
  content,
  parentId: rowId.nullable().optional(),
  /** A line comment: the lines of a version of the paste it is on (top-level replies only). */
  anchor: lineAnchorSchema.nullable().optional(),
  /** A line comment's suggested replacement for its lines ('' removes them): needs `anchor`. */
  suggestion: suggestionSchema.nullable().optional(),
});
export type CreateReplyBody = z.infer<typeof createReplySchema>;

export const voteSchema = z
  .object({
    threadId: pasteRefSchema.optional(),
    replyId: rowId.optional(),
    value: z.union([z.literal(1), z.literal(-1)]),
  })
  .refine((body) => (body.threadId === undefined) !== (body.replyId === undefined), {
    message: POST_MESSAGES.voteTarget,
  });
export type VoteBody = z.infer<typeof voteSchema>;

/** What the API says of an author: never the e-mail address. Null when deleted: show 'Anonymous'. */
export const publicAuthorSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  avatarUrl: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  reputation: z.number().int(),
  /** The active premium grade, sent only while the member owns it (else null). */
  activePremiumRank: z.string().nullable(),
});
export type PublicAuthor = z.infer<typeof publicAuthorSchema>;

/**
 * The rank a public author shows. The API sends `activePremiumRank` only while it is owned, so an
 * active grade wins; otherwise the reputation rank.
 */
export function authorRank(author: Pick<PublicAuthor, 'reputation' | 'activePremiumRank'>): Rank {
  const active = author.activePremiumRank;
  return effectiveRank({
    reputation: author.reputation,
    activePremiumRank: active,
    ownedPremiumRanks: active ? [active] : [],
  });
}

/** The signed-in member's own vote on a paste or reply (null: none, or signed out). */
export const myVoteSchema = z.union([z.literal(1), z.literal(-1)]).nullable();

/** A thread card (lists, search, profile): no content, which may be long. */
export const pasteCardSchema = z.object({
  /** Its number while public, else its unguessable key (pasteRefOf). */
  id: pasteRefSchema,
  title: z.string(),
  createdAt: z.string(),
  author: publicAuthorSchema.nullable(),
  viewCount: z.number().int(),
  voteScore: z.number().int(),
  replyCount: z.number().int(),
  isPinned: z.boolean(),
  isLocked: z.boolean(),
  isFeatured: z.boolean(),
  lastReplyAt: z.string().nullable(),
  lastReplyAuthor: publicAuthorSchema.nullable(),
  visibility: visibilitySchema,
  /** When it expires (ISO), or null: never. */
  expiresAt: z.string().nullable(),
  /** Its tags (tags.ts), in the order its author gave them. */
  tags: z.array(z.string()),
});
export type PasteCard = z.infer<typeof pasteCardSchema>;

/** A reply: a flat list with parentId; the client builds the tree. */
export const replySchema = z.object({
  id: z.number().int(),
  /** The paste's ref (its number while public, else its key). */
  threadId: pasteRefSchema,
  parentId: z.number().int().nullable(),
  content: z.string(),
  createdAt: z.string(),
  /** When its author (or an admin) last edited it; null while it never was. */
  editedAt: z.string().nullable(),
  author: publicAuthorSchema.nullable(),
  voteScore: z.number().int(),
  myVote: myVoteSchema,
  /**
   * Deleted by its author while replies stand under it: shown as OWN_POSTS_TEXTS.replyDeleted, its
   * content empty and its author null, so the tree keeps its shape.
   */
  deleted: z.boolean(),
  /**
   * Hidden pending review (members' flags passed the threshold): shown as MODERATION_TEXTS
   * .hiddenPendingReview, its content empty for everyone (the page is shared); its author may still edit it.
   */
  hidden: z.boolean(),
  /** A line comment's lines (absent: an ordinary reply, or a deleted or hidden one). */
  anchor: lineAnchorSchema.optional(),
  /** A later version changed its lines: shown 'on an older version', linked to `anchor.version`. */
  outdated: z.boolean().optional(),
  /** Its suggested replacement for the lines ('' removes them), absent when none. */
  suggestion: z.string().optional(),
  /** The version applying the suggestion made, or null while it is not applied. */
  suggestionApplied: z.number().int().nullable().optional(),
});
export type ReplyView = z.infer<typeof replySchema>;

export const pasteDetailSchema = pasteCardSchema.extend({
  /**
   * Absent only for a paste that burns after reading, to anyone but its author: `POST …/read-once`
   * answers the content and deletes the paste.
   */
  content: z.string().optional(),
  burnAfterReading: z.boolean(),
  /** The paste this one is a fork of: its ref and title, or both null once it is gone or unreadable. */
  forkedFrom: z.object({ id: pasteRefSchema.nullable(), title: z.string().nullable() }).nullable(),
  /** How many forks of it are public and alive. */
  forkCount: z.number().int(),
  /** The highlight.js language the content is in (its canonical name), or null for Markdown. */
  language: z.string().nullable(),
  /** When it was last edited (its versions: `GET /api/threads/{id}/revisions`); null while it never was. */
  editedAt: z.string().nullable(),
  myVote: myVoteSchema,
  /** Hidden pending review: only its author reads it (others get 404 MODERATION_MESSAGES.pasteHidden). */
  hidden: z.boolean(),
  replies: z.array(replySchema),
  /** Its SSH signature's state (signing.ts); absent or null: unsigned. */
  signature: pasteSignatureSchema.nullable().optional(),
});
export type PasteDetail = z.infer<typeof pasteDetailSchema>;

/** `GET /api/threads/recent`: pinned pastes apart, the rest paged by an opaque cursor. */
export const recentPastesPageSchema = z.object({
  pinned: z.array(pasteCardSchema),
  threads: z.array(pasteCardSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
});
export type RecentPastesPage = z.infer<typeof recentPastesPageSchema>;

/**
 * Search ranks at most this many matches, the newest: pages end with them, and `total` counts no further
 * (`totalCapped` says there are more).
 */
export const SEARCH_CANDIDATES_MAX = 1000;

/**
 * `GET /api/search?q=&page=`: ranked by relevance, then recency. `total` counts every match up to
 * SEARCH_CANDIDATES_MAX; beyond that it is SEARCH_CANDIDATES_MAX with `totalCapped` true, and only the
 * newest SEARCH_CANDIDATES_MAX matches are ranked and paged.
 */
export const searchResultsSchema = z.object({
  threads: z.array(pasteCardSchema),
  page: z.number().int(),
  hasMore: z.boolean(),
  total: z.number().int(),
  // A server from before the cap sends none: its total was exact.
  totalCapped: z.boolean().default(false),
});
export type SearchResults = z.infer<typeof searchResultsSchema>;

/** Forks per page of `GET /api/threads/{id}/forks`. */
export const FORKS_PAGE_SIZE = 50;

/**
 * `GET /api/threads/{id}/forks?cursor=`: the paste's public, alive forks, newest first, keyset-paged (their
 * number is the paste's `forkCount`).
 */
export const forksPageSchema = z.object({
  forks: z.array(pasteCardSchema),
  nextCursor: z.string().nullable(),
});
export type ForksPage = z.infer<typeof forksPageSchema>;

/** A new paste's or reply's id; a paste's is its ref (its key unless public). */
export const createdSchema = z.object({ id: pasteRefSchema });

/**
 * 202 from `POST /api/threads`, `POST /api/pastes`, a fork and a reply: a spam signal (or a new member's
 * first posts) held the post for review instead of publishing it; `itemId` is its review item.
 */
export const heldPostSchema = z.object({
  held: z.literal(true),
  message: z.string(),
  itemId: z.number().int(),
});
export type HeldPost = z.infer<typeof heldPostSchema>;

/** `POST /api/votes`: the vote now in force (null: taken back) and the target's score. */
export const voteResultSchema = z.object({
  value: z.union([z.literal(1), z.literal(-1)]).nullable(),
  voteScore: z.number().int(),
});
export type VoteResult = z.infer<typeof voteResultSchema>;

/** `GET /api/users/{id}`: public fields (never the e-mail address) and recent pastes. */
export const userProfileSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  bio: z.string().nullable(),
  reputation: z.number().int(),
  activePremiumRank: z.string().nullable(),
  ownedPremiumRanks: z.array(z.string()),
  threadCount: z.number().int(),
  replyCount: z.number().int(),
  createdAt: z.string(),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  isBanned: z.boolean(),
  recentThreads: z.array(pasteCardSchema),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** `POST /api/admin/threads/{id}/pin|lock|featured`: the flags after the toggle. */
export const pasteFlagsSchema = z.object({
  isPinned: z.boolean(),
  isLocked: z.boolean(),
  isFeatured: z.boolean(),
});
export type PasteFlags = z.infer<typeof pasteFlagsSchema>;

/** One member of the users directory (`GET /api/users`): public fields only. */
export const directoryUserSchema = publicAuthorSchema.extend({
  threadCount: z.number().int(),
  replyCount: z.number().int(),
  createdAt: z.string(),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
});
export type DirectoryUser = z.infer<typeof directoryUserSchema>;

/** `GET /api/users?q=&cursor=`: members by reputation (highest first), keyset-paged, filtered by name. */
export const usersPageSchema = z.object({
  users: z.array(directoryUserSchema),
  nextCursor: z.string().nullable(),
});
export type UsersPage = z.infer<typeof usersPageSchema>;

/** A paste is hot when it has more than 20 replies or more than 100 views. */
export function isHotPaste(paste: Pick<PasteCard, 'replyCount' | 'viewCount'>): boolean {
  return paste.replyCount > HOT_PASTE.replyCountOver || paste.viewCount > HOT_PASTE.viewCountOver;
}
