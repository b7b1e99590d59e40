import { z } from 'zod';
import { publicAuthorSchema } from './paste-views.js';

/** Mutes and blocks a member may hold, each. */
export const PEOPLE_LIST_MAX = 1000;

/** What the member's screens say of the members they muted and blocked. */
export const PEOPLE_TEXTS = {
  mute: 'MUTE',
  unmute: 'UNMUTE',
  block: 'BLOCK',
  unblock: 'UNBLOCK',
  mutedPost: 'Post by a member you muted',
  show: 'show',
  /** A blocked member's post, in place: no 'show' (blocking means not seeing them). */
  blockedPost: 'Post by a member you blocked',
  /** Below a list that left out blocked members' pastes. */
  blockedLeftOut: (count: number) =>
    `${count} ${count === 1 ? 'paste by a member' : 'pastes by members'} you blocked not shown`,
  hide: 'hide',
  mutedToast: (name: string) => `${name} muted`,
  unmutedToast: (name: string) => `${name} unmuted`,
  blockedToast: (name: string) => `${name} blocked`,
  unblockedToast: (name: string) => `${name} unblocked`,
  confirmBlock: (name: string) => `Block ${name}?`,
  confirmBlockDetail:
    'They will not be able to send you private messages or mention you, and you will not see their ' +
    'posts. They are not told. You can unblock them in settings.',
  title: 'PEOPLE',
  mutedTitle: 'MUTED',
  blockedTitle: 'BLOCKED',
  mutedHelp: "Their pastes, replies and chat messages are collapsed for you, with 'show'. They are not told.",
  blockedHelp:
    'They cannot send you private messages or mention you, and you do not see their posts. They are ' +
    'not told. Staff cannot be blocked.',
  noMutes: 'You have not muted anyone.',
  noBlocks: 'You have not blocked anyone.',
} as const;

/** A member in the member's mute or block list. */
export const personEntrySchema = z.object({
  member: publicAuthorSchema,
  createdAt: z.string(),
});
export type PersonEntry = z.infer<typeof personEntrySchema>;

/** `GET /api/user/mutes`, `GET /api/user/blocks`: newest first (at most PEOPLE_LIST_MAX). */
export const peopleListSchema = z.object({ members: z.array(personEntrySchema) });
export type PeopleList = z.infer<typeof peopleListSchema>;
