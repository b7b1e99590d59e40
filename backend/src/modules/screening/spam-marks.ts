import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/**
 * Mail providers whose domain is shared by millions of members: a spammer's address there is
 * remembered (by its hash), never the domain, so their next honest member is not suspected.
 */
export const COMMON_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'qq.com',
  '163.com',
  'fastmail.com',
  'tutanota.com',
]);

/** What spam_marks keeps of an address: the SHA-256 (hex) of its lower-cased form. */
export function addressHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

/** The address's domain, lower-cased (what follows its last @); null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  const domain =
    at < 0
      ? ''
      : email
          .slice(at + 1)
          .trim()
          .toLowerCase();
  return domain === '' ? null : domain;
}

/** The domain to remember of a spammer's address: null for a common mail provider's. */
export function markableDomain(email: string): string | null {
  const domain = emailDomain(email);
  return domain === null || COMMON_MAIL_DOMAINS.has(domain) ? null : domain;
}

/**
 * In the caller's transaction (deleting a spammer): remembers their address (its hash) and its domain
 * (unless a common mail provider's) for the spam signals; answers the domain remembered, if any.
 */
export async function markSpammer(
  manager: EntityManager,
  spammer: { email: string; username: string },
): Promise<string | null> {
  const domain = markableDomain(spammer.email);
  const marks: Array<['address' | 'domain', string]> = [['address', addressHash(spammer.email)]];
  if (domain !== null) marks.push(['domain', domain]);
  for (const [kind, value] of marks) {
    await manager.query(
      'INSERT INTO spam_marks (kind, value, spammer) VALUES ($1, $2, $3) ON CONFLICT (kind, value) DO NOTHING',
      [kind, value, spammer.username],
    );
  }
  return domain;
}
