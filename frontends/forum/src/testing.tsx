/**
 * Test support for the forum's specs (fixtures, and @termpaste/ui/testing's helpers). Only specs import
 * it, so no build bundles it. Importing it clears the toasts and restores fetch after each test.
 */
import type { DirectoryUser, ReplyView, PasteCard, PasteDetail, UserProfile } from '@termpaste/contracts';
import { minutesAgo, sampleAuthor } from '@termpaste/ui/testing';

export * from '@termpaste/ui/testing';

// ---- Fixtures: override what a test is about.

/** Paste 4 'nmap cheatsheet' by trinity, two hours old: 2 replies, 7 views, no flag, not hot. */
export function sampleCard(overrides: Partial<PasteCard> = {}): PasteCard {
  return {
    id: 4,
    title: 'nmap cheatsheet',
    createdAt: minutesAgo(120),
    author: sampleAuthor(),
    viewCount: 7,
    voteScore: 0,
    replyCount: 2,
    isPinned: false,
    isLocked: false,
    isFeatured: false,
    lastReplyAt: null,
    lastReplyAuthor: null,
    visibility: 'public',
    expiresAt: null,
    tags: [],
    ...overrides,
  };
}

/** A top-level reply by trinity on paste 5; its text and age follow its id ('reply number 11', 49 min). */
export function sampleReply(overrides: Partial<ReplyView> = {}): ReplyView {
  const id = overrides.id ?? 11;
  return {
    id,
    threadId: 5,
    parentId: null,
    content: `reply number ${id}`,
    createdAt: minutesAgo(60 - id),
    editedAt: null,
    author: sampleAuthor(),
    voteScore: 0,
    myVote: null,
    deleted: false,
    hidden: false,
    ...overrides,
  };
}

/**
 * Paste 5 'nmap cheatsheet' by trinity (260 points: Advanced), score +3, with four replies: morpheus (11),
 * trinity under him (12), tank under her (13), and a deleted author's (14, score -2).
 */
export function samplePaste(overrides: Partial<PasteDetail> = {}): PasteDetail {
  const tank = sampleAuthor({ id: 9, username: 'tank' });
  return {
    ...sampleCard({
      id: 5,
      author: sampleAuthor({ reputation: 260 }),
      voteScore: 3,
      replyCount: 4,
      lastReplyAt: minutesAgo(30),
      lastReplyAuthor: tank,
    }),
    content: '## Usage\n\nRun **nmap -sV** against the host.',
    language: null,
    editedAt: null,
    burnAfterReading: false,
    forkedFrom: null,
    forkCount: 0,
    myVote: null,
    hidden: false,
    replies: [
      sampleReply({ id: 11, author: sampleAuthor({ id: 8, username: 'morpheus' }) }),
      sampleReply({ id: 12, parentId: 11 }),
      sampleReply({ id: 13, parentId: 12, author: tank }),
      sampleReply({ id: 14, author: null, content: 'ghost words', voteScore: -2 }),
    ],
    ...overrides,
  };
}

/** trinity's profile: 42 points (Rookie), full name, avatar, a Markdown bio and two recent pastes. */
export function sampleProfile(overrides: Partial<UserProfile> = {}): UserProfile {
  const own = (id: number, title: string) =>
    sampleCard({ id, title, author: sampleAuthor({ reputation: 42 }) });
  return {
    id: 3,
    username: 'trinity',
    firstName: 'Tri',
    lastName: 'Nity',
    avatarUrl: 'https://cdn.test/trinity.png',
    profileImageUrl: null,
    bio: 'I *hack* things. See [my site](https://trinity.example).',
    reputation: 42,
    activePremiumRank: null,
    ownedPremiumRanks: [],
    threadCount: 3,
    replyCount: 17,
    createdAt: '2026-01-05T12:00:00.000Z',
    isAdmin: false,
    isOwner: false,
    isBanned: false,
    recentThreads: [own(11, 'first paste'), own(12, 'second paste')],
    ...overrides,
  };
}

/** trinity in the members directory: 120 points, 4 pastes, 9 replies, joined Jan 5, 2026. */
export function sampleDirectoryUser(overrides: Partial<DirectoryUser> = {}): DirectoryUser {
  return {
    ...sampleAuthor({ reputation: 120 }),
    threadCount: 4,
    replyCount: 9,
    createdAt: '2026-01-05T12:00:00.000Z',
    isAdmin: false,
    isOwner: false,
    ...overrides,
  };
}
