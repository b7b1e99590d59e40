import type { AdminUser, CurrentUser, DirectoryUser, UserProfile } from '@termpaste/contracts';
import { createdMicros } from '../../common/keyset-cursor.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { ownedActiveRank } from './author-sql.js';
import { User } from './entities/user.entity.js';
import { bannedNow } from './user-sql.js';

/*
 * The users table's rows as its reads select them (entity names, over `u`), and the one place they turn
 * into contracts' shapes. Each SELECT lists the columns in the order of the contract's keys, since the
 * mappers spread the rows as they come.
 */

const BANNED_NOW = bannedNow('u');
const SILENCED_NOW = '(u.silenced_until IS NOT NULL AND u.silenced_until > now())';
/** The active premium rank while the member owns it (ownedActiveRank). */
const ACTIVE_RANK = `${ownedActiveRank('u')} AS "activePremiumRank"`;

const NAMES = ['firstName', 'lastName'] as const;
const AVATARS = ['avatarUrl', 'profileImageUrl'] as const;

const DIRECTORY_HEAD = ['id', 'username', ...AVATARS, ...NAMES, 'reputation'] as const;
const COUNTS = ['threadCount', 'replyCount', 'createdAt', 'isAdmin', 'isOwner'] as const;

/** A member as the users directory lists them. */
export const DIRECTORY_SELECT = [
  selectColumns(User, 'u', DIRECTORY_HEAD),
  ACTIVE_RANK,
  selectColumns(User, 'u', COUNTS),
].join(', ');

export type DirectoryRow = Row<User, (typeof DIRECTORY_HEAD)[number] | (typeof COUNTS)[number]> &
  Pick<User, 'activePremiumRank'>;

const PROFILE_HEAD = ['id', 'username', ...NAMES, ...AVATARS, 'bio', 'reputation'] as const;
const PROFILE_TAIL = ['ownedPremiumRanks', ...COUNTS] as const;

/** A member's public profile (their newest pastes are the profiles module's). */
export const PROFILE_SELECT = [
  selectColumns(User, 'u', PROFILE_HEAD),
  ACTIVE_RANK,
  selectColumns(User, 'u', PROFILE_TAIL),
  `${BANNED_NOW} AS "isBanned"`,
].join(', ');

export type ProfileRow = Row<User, (typeof PROFILE_HEAD)[number] | (typeof PROFILE_TAIL)[number]> &
  Pick<User, 'activePremiumRank' | 'isBanned'>;

const ADMIN_HEAD = ['id', 'username', 'email', ...NAMES, ...AVATARS, 'reputation'] as const;
const ADMIN_ROLES = ['ownedPremiumRanks', 'isAdmin', 'isOwner'] as const;

/**
 * A member as the admin panel's users table shows them: a ban or a silence whose end has passed shows as
 * lifted (its columns null) before its job has run.
 */
export const ADMIN_USER_SELECT = [
  selectColumns(User, 'u', ADMIN_HEAD),
  ACTIVE_RANK,
  selectColumns(User, 'u', ADMIN_ROLES),
  `${BANNED_NOW} AS "isBanned"`,
  `CASE WHEN ${BANNED_NOW} THEN u.banned_until END AS "bannedUntil"`,
  `CASE WHEN ${BANNED_NOW} THEN u.ban_reason END AS "banReason"`,
  `CASE WHEN ${SILENCED_NOW} THEN u.silenced_until END AS "silencedUntil"`,
  `CASE WHEN ${SILENCED_NOW} THEN u.silence_reason END AS "silenceReason"`,
  selectColumns(User, 'u', ['createdAt']),
  `${createdMicros('u')} AS "createdMicros"`,
].join(', ');

/** The ban's and silence's columns are computed (as they stand now), with the columns' types. */
export type AdminUserRow = Row<
  User,
  (typeof ADMIN_HEAD)[number] | (typeof ADMIN_ROLES)[number] | 'createdAt'
> &
  Pick<
    User,
    'activePremiumRank' | 'isBanned' | 'bannedUntil' | 'banReason' | 'silencedUntil' | 'silenceReason'
  > & {
    createdMicros: string;
  };

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

export const toDirectoryUser = (row: DirectoryRow): DirectoryUser => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

export const toPublicProfile = (row: ProfileRow): Omit<UserProfile, 'recentThreads'> => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

export const toAdminUser = ({ createdMicros: _cursor, ...row }: AdminUserRow): AdminUser => ({
  ...row,
  bannedUntil: iso(row.bannedUntil),
  silencedUntil: iso(row.silencedUntil),
  createdAt: row.createdAt.toISOString(),
});

/** The signed-in user as the API shows it (contracts' currentUserSchema): never the password hash. */
export function toCurrentUser(user: User): CurrentUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    avatarUrl: user.avatarUrl,
    profileImageUrl: user.profileImageUrl,
    bio: user.bio,
    reputation: user.reputation,
    activePremiumRank: user.activePremiumRank,
    ownedPremiumRanks: user.ownedPremiumRanks,
    threadCount: user.threadCount,
    replyCount: user.replyCount,
    createdAt: user.createdAt.toISOString(),
    isAdmin: user.isAdmin,
    isOwner: user.isOwner,
    isBanned: user.isBanned,
    emailVerified: user.emailVerifiedAt !== null,
    silencedUntil: iso(user.silencedUntil),
    silenceReason: user.silencedUntil ? user.silenceReason : null,
  };
}
