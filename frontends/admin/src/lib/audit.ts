import { PAGES } from '@termpaste/contracts';
import { type AuditAction, type AuditEntry } from '@termpaste/contracts/admin';

/** What each staff action reads as in the log and its filter. */
export const AUDIT_LABELS: Record<AuditAction, string> = {
  'thread.pin': 'Pinned paste',
  'thread.unpin': 'Unpinned paste',
  'thread.lock': 'Locked paste',
  'thread.unlock': 'Unlocked paste',
  'thread.feature': 'Featured paste',
  'thread.unfeature': 'Unfeatured paste',
  'thread.delete': 'Deleted paste',
  'reply.delete': 'Deleted reply',
  'thread.edit': 'Edited paste',
  'reply.edit': 'Edited reply',
  'thread.revision_purge': 'Redacted paste',
  'reply.revision_purge': 'Redacted reply',
  'thread.restore': 'Restored paste',
  'reply.restore': 'Restored reply',
  'thread.private_read': 'Read paste',
  'user.ban': 'Banned user',
  'user.unban': 'Unbanned user',
  'user.rename': 'Renamed user',
  'user.avatar_delete': 'Deleted avatar',
  'user.delete': 'Deleted user',
  'user.grades': 'Changed grades',
  'user.admin_grant': 'Granted admin',
  'user.admin_revoke': 'Revoked admin',
  'review.agree': 'Agreed with flags',
  'review.disagree': 'Disagreed with flags',
  'review.ignore': 'Ignored flags',
  'review.approve': 'Approved held post',
  'review.reject': 'Rejected held post',
  'user.silence': 'Silenced user',
  'user.unsilence': 'Unsilenced user',
  'user.spammer_delete': 'Deleted spammer',
  'spam_mark.forget': 'Forgot spam mark',
  'user.create': 'Created user',
  'user.reset_link': 'Issued reset link',
  'tag.rename': 'Renamed tag',
  'tag.merge': 'Merged tag',
  'tag.delete': 'Deleted tag',
};

/**
 * Actions that remove their target: nothing is left to link to. A private paste read by staff has no
 * page anyone else may open by its number either.
 */
const REMOVES_TARGET: ReadonlySet<AuditAction> = new Set([
  'thread.delete',
  'reply.delete',
  'user.delete',
  'user.spammer_delete',
  'spam_mark.forget',
  'thread.private_read',
  'tag.merge',
  'tag.delete',
]);

/**
 * Where the target of an entry can be seen: a paste at /thread/{id}, a member at /profile/{id}; null for
 * a reply (no page of its own) and for a target the action deleted.
 */
export function targetLink(entry: Pick<AuditEntry, 'action' | 'targetType' | 'targetId'>): string | null {
  if (REMOVES_TARGET.has(entry.action)) return null;
  if (entry.targetType === 'thread') return PAGES.thread(entry.targetId);
  if (entry.targetType === 'user') return PAGES.profile(entry.targetId);
  return null;
}

/** One value of a before/after snapshot, short: strings as they are, lists comma-separated. */
function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(formatValue).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * A before or after snapshot as one line: `key: value` pairs for an object (`isBanned: true`), the value
 * itself otherwise, null when there is none.
 */
export function formatSnapshot(snapshot: unknown): string | null {
  if (snapshot === null || snapshot === undefined) return null;
  if (typeof snapshot === 'object' && !Array.isArray(snapshot)) {
    const entries = Object.entries(snapshot as Record<string, unknown>);
    if (entries.length === 0) return null;
    return entries.map(([key, value]) => `${key}: ${formatValue(value)}`).join(', ');
  }
  return formatValue(snapshot);
}

/**
 * The change an entry records, keeping only the keys that differ when both sides are objects
 * ({isBanned: false} → {isBanned: true} reads 'isBanned: false → isBanned: true').
 */
export function describeChange(entry: Pick<AuditEntry, 'before' | 'after'>): {
  before: string | null;
  after: string | null;
} {
  const { before, after } = entry;
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
    );
    if (keys.length > 0) {
      const pick = (record: Record<string, unknown>) =>
        Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, record[key]]));
      return { before: formatSnapshot(pick(before)), after: formatSnapshot(pick(after)) };
    }
  }
  return { before: formatSnapshot(before), after: formatSnapshot(after) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
