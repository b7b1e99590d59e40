import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { UNSUBSCRIBE_SCOPES, type UnsubscribeScope } from '@termpaste/contracts';

/**
 * An unsubscribe link's token: `<member id>.<scope>.<mac>`, the mac an HMAC-SHA256 under the member's own
 * random key (mail_settings.unsubscribe_key), so a worker without SESSION_SECRET signs them too, and no
 * member's token tells anything of another's. It does not expire: an old mail's link still works.
 */

export function newUnsubscribeKey(): string {
  return randomBytes(32).toString('base64url');
}

function mac(key: string, userId: number, scope: UnsubscribeScope): Buffer {
  return createHmac('sha256', key).update(`unsubscribe:${userId}:${scope}`).digest();
}

export function signUnsubscribe(key: string, userId: number, scope: UnsubscribeScope): string {
  return `${userId}.${scope}.${mac(key, userId, scope).toString('base64url')}`;
}

export interface UnsubscribeClaim {
  userId: number;
  scope: UnsubscribeScope;
  mac: Buffer;
}

/** What a token says, before its mac is checked (null: not a token's shape). */
export function readUnsubscribe(token: string): UnsubscribeClaim | null {
  const match = /^([1-9][0-9]{0,9})\.([a-z]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const scope = match[2] as UnsubscribeScope;
  if (!UNSUBSCRIBE_SCOPES.includes(scope)) return null;
  const userId = Number(match[1]);
  if (!Number.isSafeInteger(userId) || userId > 2_147_483_647) return null;
  return { userId, scope, mac: Buffer.from(match[3]!, 'base64url') };
}

export function unsubscribeMacValid(key: string, claim: UnsubscribeClaim): boolean {
  const expected = mac(key, claim.userId, claim.scope);
  return claim.mac.length === expected.length && timingSafeEqual(claim.mac, expected);
}
