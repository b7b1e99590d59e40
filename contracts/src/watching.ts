import { z } from 'zod';
import { publicAuthorSchema } from './paste-views.js';
import { pasteRefSchema } from './visibility.js';

/** A bookmark's note, at most this many characters. */
export const BOOKMARK_NOTE_MAX = 200;
/** Bookmarks a page of `GET /api/bookmarks` holds. */
export const BOOKMARKS_PAGE_SIZE = 30;
/** Entries of each list on the watching screen (newest first). */
export const WATCHING_LIST_MAX = 500;
/** A reply's excerpt in the bookmarks list, in characters. */
export const BOOKMARK_EXCERPT_CHARS = 200;

export const BOOKMARK_KINDS = ['paste', 'reply'] as const;
export type BookmarkKind = (typeof BOOKMARK_KINDS)[number];

export const WATCHING_MESSAGES = {
  followSelf: 'You cannot follow yourself',
  userNotFound: 'User not found',
  tagNotFound: 'Tag not found',
  bookmarkKind: 'A bookmark is of a paste or a reply',
  noteTooLong: `A note is at most ${BOOKMARK_NOTE_MAX} characters`,
  noteNotText: 'note must be text',
  autoWatchNotBoolean: 'autoWatch must be true or false',
} as const;

/** What the screens say. */
export const WATCHING_TEXTS = {
  watch: 'WATCH',
  unwatch: 'UNWATCH',
  follow: 'FOLLOW',
  unfollow: 'UNFOLLOW',
  watchTag: 'WATCH TAG',
  unwatchTag: 'UNWATCH TAG',
  watchingToast: 'Watching: every reply will notify you',
  unwatchedToast: 'No longer watching',
  followingToast: (name: string) => `Following ${name}: their new public pastes will notify you`,
  unfollowedToast: (name: string) => `No longer following ${name}`,
  tagWatchingToast: (name: string) => `Watching tag ${name}`,
  tagUnwatchedToast: (name: string) => `No longer watching tag ${name}`,
  bookmark: 'Bookmark',
  bookmarked: 'Bookmarked',
  bookmarkedToast: 'Bookmarked',
  unbookmarkedToast: 'Bookmark removed',
  noteLabel: 'Note (optional)',
  saveNote: 'SAVE',
  removeBookmark: 'REMOVE',
  bookmarksTitle: 'BOOKMARKS',
  bookmarksHelp: 'Pastes and replies you saved, newest first. Only you see them and their notes.',
  noBookmarks: 'No bookmarks yet: use the bookmark icon on a paste or a reply.',
  replyIn: (title: string) => `reply in ${title}`,
  watchingTitle: 'WATCHING',
  watchingHelp:
    'Replies on pastes you watch, new public pastes of members you follow and of tags you watch notify you.',
  autoWatch: 'Watch the pastes I post and reply to',
  pastesTitle: 'PASTES',
  membersTitle: 'MEMBERS',
  tagsTitle: 'TAGS',
  noPastes: 'You watch no pastes.',
  noMembers: 'You follow nobody.',
  noTags: 'You watch no tags.',
} as const;

/** `PUT /api/bookmarks/{kind}/{id}`: an optional note (blank or absent: none). */
export const bookmarkBodySchema = z
  .object({
    note: z
      .string(WATCHING_MESSAGES.noteNotText)
      .trim()
      .max(BOOKMARK_NOTE_MAX, WATCHING_MESSAGES.noteTooLong)
      .nullish()
      .transform((note) => (note ? note : null)),
  })
  .default({ note: null });
export type BookmarkBody = z.input<typeof bookmarkBodySchema>;

/** `PUT /api/user/watching`: the auto-watch setting. */
export const watchSettingsSchema = z.object({
  autoWatch: z.boolean(WATCHING_MESSAGES.autoWatchNotBoolean),
});
export type WatchSettings = z.infer<typeof watchSettingsSchema>;

/** A paste as the watching and bookmarks lists show it (only while the member may read it). */
export const watchedPasteSchema = z.object({
  ref: pasteRefSchema,
  title: z.string(),
  language: z.string().nullable(),
  author: publicAuthorSchema.nullable(),
  createdAt: z.string(),
});
export type WatchedPaste = z.infer<typeof watchedPasteSchema>;

/** `GET /api/threads/{id}/watch`: the member's watch and bookmarks on the paste's page. */
export const pasteWatchStateSchema = z.object({
  watching: z.boolean(),
  /** The paste's bookmark note (null: no note), or false when not bookmarked. */
  pasteBookmark: z.union([z.string(), z.null(), z.literal(false)]),
  /** The paste's replies the member bookmarked, with their notes. */
  replyBookmarks: z.array(z.object({ replyId: z.number().int(), note: z.string().nullable() })),
});
export type PasteWatchState = z.infer<typeof pasteWatchStateSchema>;

export const followStateSchema = z.object({ following: z.boolean() });
export type FollowState = z.infer<typeof followStateSchema>;
export const tagWatchStateSchema = z.object({ watching: z.boolean() });
export type TagWatchState = z.infer<typeof tagWatchStateSchema>;

/** One bookmark: of a paste (`reply` null) or of a reply in `paste`. */
export const bookmarkEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(BOOKMARK_KINDS),
  /** What `PUT`/`DELETE /api/bookmarks/{kind}/{target}` names: the paste's ref, or the reply's id. */
  target: pasteRefSchema,
  note: z.string().nullable(),
  createdAt: z.string(),
  paste: watchedPasteSchema,
  reply: z
    .object({
      id: z.number().int(),
      excerpt: z.string(),
      author: publicAuthorSchema.nullable(),
      createdAt: z.string(),
    })
    .nullable(),
});
export type BookmarkEntry = z.infer<typeof bookmarkEntrySchema>;

/** `GET /api/bookmarks`: newest first, BOOKMARKS_PAGE_SIZE at a time. */
export const bookmarksPageSchema = z.object({
  bookmarks: z.array(bookmarkEntrySchema),
  nextCursor: z.string().nullable(),
});
export type BookmarksPage = z.infer<typeof bookmarksPageSchema>;

/** `GET /api/user/watching`: each list newest first, at most WATCHING_LIST_MAX. */
export const watchingListSchema = z.object({
  autoWatch: z.boolean(),
  pastes: z.array(watchedPasteSchema.extend({ watchedAt: z.string() })),
  members: z.array(z.object({ member: publicAuthorSchema, followedAt: z.string() })),
  tags: z.array(z.object({ name: z.string(), pasteCount: z.number().int(), watchedAt: z.string() })),
});
export type WatchingList = z.infer<typeof watchingListSchema>;
