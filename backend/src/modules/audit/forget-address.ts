import type { EntityManager } from 'typeorm';

/** What an erased e-mail address reads as in the audit log. */
export const ERASED_ADDRESS = '[erased]';

/** The address as a case-insensitive regular expression of PostgreSQL (its specials escaped). */
export function addressPattern(email: string): string {
  return email.replace(/[\\^$.*+?()[\]{}|-]/g, '\\$&');
}

/**
 * Takes an e-mail address out of the audit log (a deleted account's): wherever an entry's label, before
 * or after state carries it, it reads ERASED_ADDRESS; the entries keep their ids. The address is written
 * into JSON as JSON writes it, so its text form is searched with the same escaping.
 */
export async function forgetAddressInAudit(manager: EntityManager, email: string): Promise<void> {
  const plain = addressPattern(email);
  const inJson = addressPattern(JSON.stringify(email).slice(1, -1));
  await manager.query(
    `UPDATE audit_log SET
       target_label = regexp_replace(target_label, $1, $3, 'gi'),
       actor_name = regexp_replace(actor_name, $1, $3, 'gi'),
       before = CASE WHEN before IS NULL THEN NULL ELSE regexp_replace(before::text, $2, $3, 'gi')::jsonb END,
       after = CASE WHEN after IS NULL THEN NULL ELSE regexp_replace(after::text, $2, $3, 'gi')::jsonb END
     WHERE target_label ~* $1 OR actor_name ~* $1 OR before::text ~* $2 OR after::text ~* $2`,
    [plain, inJson, ERASED_ADDRESS],
  );
}
