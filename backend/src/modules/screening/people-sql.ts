/*
 * The screening module's read-only fragment for another module's statement that must stay one round
 * trip: a private message to an e-mail address reaches nobody when that address's member blocked the
 * sender, and the answer must not tell (messages.service.ts). Arguments are SQL expressions.
 */

/** Whether member `userId` blocked member `memberId`, as an SQL boolean. */
export const blockedBySql = (userId: string, memberId: string) =>
  `EXISTS (SELECT 1 FROM member_blocks WHERE user_id = ${userId} AND member_id = ${memberId})`;
