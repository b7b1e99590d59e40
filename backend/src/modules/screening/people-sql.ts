import { staffUserSql } from '../users/user-sql.js';

/*
 * Read-only fragments for other modules' one-round-trip statements: a message to an address whose member
 * blocked the sender reaches nobody, silently; a blocked member's messages and notifications leave the
 * blocker's lists. Arguments are SQL expressions.
 */

/** Whether member `userId` blocked member `memberId`, as an SQL boolean. */
export const blockedBySql = (userId: string, memberId: string) =>
  `EXISTS (SELECT 1 FROM member_blocks WHERE user_id = ${userId} AND member_id = ${memberId})`;

/**
 * Whether member `viewerId` does not see what member `memberId` sent them: blocked, unless staff (staff
 * cannot be blocked, and a blocked member who became staff gets through again). As an SQL boolean.
 */
export const hiddenByBlockSql = (viewerId: string, memberId: string) =>
  `(${blockedBySql(viewerId, memberId)} AND NOT ${staffUserSql(memberId)})`;
