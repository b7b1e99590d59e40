import { staffUserSql } from '../users/user-sql.js';

/*
 * Read-only fragments for other modules' one-round-trip statements: a message to an address whose member
 * blocked the sender reaches nobody, silently; a blocked member's messages and notifications leave the
 * blocker's lists. Arguments are SQL expressions.
 */

/** Whether member `userId` blocked member `targetId`, as an SQL boolean. */
export const blockedBySql = (userId: string, targetId: string) =>
  `EXISTS (SELECT 1 FROM member_blocks WHERE user_id = ${userId} AND member_id = ${targetId})`;

/**
 * Whether member `viewerId` does not see what member `targetId` sent them: blocked, unless staff (staff
 * cannot be blocked, and a blocked member who became staff gets through again). As an SQL boolean.
 */
export const hiddenByBlockSql = (viewerId: string, targetId: string) =>
  `(${blockedBySql(viewerId, targetId)} AND NOT ${staffUserSql(targetId)})`;
