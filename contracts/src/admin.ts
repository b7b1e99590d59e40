import { z } from 'zod';
import { publicAuthorSchema } from './paste-views.js';
import { currentUserSchema } from './schemas.js';
import { premiumRankNameSchema } from './settings.js';
import { pasteRefSchema, visibilitySchema } from './visibility.js';

/** Members per page of the admin users table. */
export const ADMIN_USERS_PAGE_SIZE = 50;
/** Audit log entries per page. */
export const AUDIT_PAGE_SIZE = 50;

export const ADMIN_MESSAGES = {
  usernameEmpty: 'Username cannot be empty',
  ownerProtected: 'The owner account is protected',
  onlyOwnerDeletesAdmins: 'Only the owner can delete an admin account',
  onlyOwnerActsOnAdmins: "Only the owner can act on another admin's account",
  onlyOwnerChangesAdmins: 'Only the owner can grant or revoke admin',
  cannotActOnSelf: 'You cannot do this to your own account',
  noAvatar: 'This user has no avatar',
  userNotFound: 'User not found',
} as const;

/** Success toasts of the admin panel. */
export const ADMIN_TEXTS = {
  banned: 'User banned',
  unbanned: 'User unbanned',
  deleted: 'User deleted',
  renamed: 'Username updated',
  avatarDeleted: 'Avatar deleted',
  protectedAccount: 'Protected Account',
  /** Another admin's row, to an admin who is not the owner: every action there is the owner's. */
  ownerOnly: 'Owner only',
} as const;

/** One row of the admin users table (`GET /api/admin/users`): includes the e-mail (staff only). */
export const adminUserSchema = currentUserSchema
  .pick({
    id: true,
    username: true,
    email: true,
    firstName: true,
    lastName: true,
    avatarUrl: true,
    profileImageUrl: true,
    reputation: true,
    activePremiumRank: true,
    ownedPremiumRanks: true,
    isAdmin: true,
    isOwner: true,
    isBanned: true,
    createdAt: true,
  })
  .extend({
    /** A timed ban's end; null while banned: for ever (and when not banned). */
    bannedUntil: z.string().nullable(),
    banReason: z.string().nullable(),
    /** Silenced (read-only) until then; null: not silenced. */
    silencedUntil: z.string().nullable(),
    silenceReason: z.string().nullable(),
  });
export type AdminUser = z.infer<typeof adminUserSchema>;

/** `GET /api/admin/users?q=&cursor=`: newest members first, keyset-paged; q filters by name or e-mail. */
export const adminUsersPageSchema = z.object({
  users: z.array(adminUserSchema),
  nextCursor: z.string().nullable(),
});
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

/** `PUT /api/admin/users/{id}/username` {username}. */
export const adminRenameSchema = z.object({ username: z.string() });

/** `PUT /api/admin/users/{id}/grades` {grades}: the VIP grades the member owns (beyond the spec). */
export const adminRanksSchema = z.object({ grades: z.array(premiumRankNameSchema).max(4) });
export type AdminRanksBody = z.infer<typeof adminRanksSchema>;

/** `PUT /api/admin/users/{id}/admin` {isAdmin}: owner only (beyond the spec). */
export const adminRoleSchema = z.object({ isAdmin: z.boolean() });

export const AUDIT_ACTIONS = [
  'thread.pin',
  'thread.unpin',
  'thread.lock',
  'thread.unlock',
  'thread.feature',
  'thread.unfeature',
  'thread.delete',
  'reply.delete',
  // An admin's edit of another member's paste or reply.
  'thread.edit',
  'reply.edit',
  // An admin's removal of a version of another member's post (migration 17970100000000).
  'thread.revision_purge',
  'reply.revision_purge',
  // A paste or reply taken back out of the trash (migration 17971000000000).
  'thread.restore',
  'reply.restore',
  // An admin's read of another member's private paste, through the moderation screens (migration 17971000000000).
  'thread.private_read',
  'user.ban',
  'user.unban',
  'user.rename',
  'user.avatar_delete',
  'user.delete',
  'user.grades',
  'user.admin_grant',
  'user.admin_revoke',
  // Moderation (migration 17972000000000): review decisions, timed suspensions, silences, spammers.
  'review.agree',
  'review.disagree',
  'review.ignore',
  'review.approve',
  'review.reject',
  'user.silence',
  'user.unsilence',
  'user.spammer_delete',
  // A spam mark staff forgot (migration 17973000000001).
  'spam_mark.forget',
  // The command line's: an account it created, a password reset link it printed (migration 17973000000006).
  'user.create',
  'user.reset_link',
  // An admin's rename, merge or deletion of a tag (migration 17974000000001).
  'tag.rename',
  'tag.merge',
  'tag.delete',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_TARGET_TYPES = ['thread', 'reply', 'user', 'chat', 'message', 'spam_mark', 'tag'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** One staff action (beyond the spec, as Discourse's staff action log). */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  action: z.enum(AUDIT_ACTIONS),
  /** Who did it: null once their account is deleted (actorName keeps the name). */
  actorId: z.number().int().nullable(),
  actorName: z.string(),
  /**
   * What it was done to: `thread`, `reply`, `user`, `chat` (a chat message) or `message` (a private
   * message), its id and a label (title, username or excerpt) at the time.
   */
  targetType: z.enum(AUDIT_TARGET_TYPES),
  targetId: z.number().int(),
  targetLabel: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** `GET /api/admin/audit?action=&q=&cursor=`: newest first, keyset-paged, filterable by action and name. */
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/**
 * One deleted paste or reply in the trash (`GET /api/admin/trash`), kept TRASH_DAYS days. `id` is the
 * paste's or the reply's number (what the restore routes take); `threadRef` links to the paste once
 * restored; `title` is the paste's; `excerpt` the start of the post's text.
 */
export const trashEntrySchema = z.object({
  kind: z.enum(['paste', 'reply']),
  id: z.number().int(),
  threadId: z.number().int(),
  threadRef: pasteRefSchema,
  visibility: visibilitySchema,
  title: z.string(),
  excerpt: z.string(),
  /** Who wrote it (null: a deleted account). */
  author: publicAuthorSchema.nullable(),
  deletedAt: z.string(),
  /** Who deleted it: its author or a member of staff (null: a deleted account). */
  deletedBy: publicAuthorSchema.nullable(),
  /** When the purge removes it for good. */
  purgeAt: z.string(),
});
export type TrashEntry = z.infer<typeof trashEntrySchema>;

/** `GET /api/admin/trash?cursor=`: newest deletion first, keyset-paged. */
export const trashPageSchema = z.object({
  entries: z.array(trashEntrySchema),
  nextCursor: z.string().nullable(),
});
export type TrashPage = z.infer<typeof trashPageSchema>;
