import { API, type PremiumRankName } from '@termpaste/contracts';
import {
  type BanBody,
  MODERATION_TEXTS,
  type SilenceBody,
  type SpamMark,
  spamMarksPageSchema,
} from '@termpaste/contracts/moderation';
import { OWN_POSTS_MESSAGES } from '@termpaste/contracts/own-posts';
import {
  ADMIN_TEXTS,
  auditPageSchema,
  adminUsersPageSchema,
  type AdminUser,
  type AuditAction,
  type TrashEntry,
  trashPageSchema,
} from '@termpaste/contracts/admin';
import { apiRequest, currentUserQuery, getJson, refreshQueries, toast, toastError } from '@termpaste/ui';
import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** `url?a=1&b=2`, leaving out empty values. */
function withParams(url: string, params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const query = search.toString();
  return query ? `${url}?${query}` : url;
}

/**
 * The members table (`GET /api/admin/users?q=&cursor=`), newest first, 50 a page; `q` filters by name or
 * e-mail. Read afresh on every visit: members join and other staff act meanwhile.
 */
export const adminUsersQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: [API.adminUsers, { q }],
    queryFn: ({ pageParam }) =>
      getJson(withParams(API.adminUsers, { q, cursor: pageParam }), adminUsersPageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });

/** The staff action log (`GET /api/admin/audit?action=&q=&cursor=`), newest first, 50 a page. */
export const auditQuery = (filter: { action: AuditAction | ''; q: string }) =>
  infiniteQueryOptions({
    queryKey: [API.adminAudit, filter],
    queryFn: ({ pageParam }) =>
      getJson(
        withParams(API.adminAudit, { action: filter.action, q: filter.q, cursor: pageParam }),
        auditPageSchema,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });

/** What an admin can do to one member's account (ban, rename, grades, admin rights). */
export type UserAction =
  /** For ever without terms (the spec's empty payload), else for `days` with a `reason`. */
  | { kind: 'ban'; body?: BanBody }
  | { kind: 'unban' }
  | { kind: 'silence'; body: SilenceBody }
  | { kind: 'unsilence' }
  /** Deletes the member with their pastes, replies and chat lines; remembers their address. */
  | { kind: 'spammer' }
  /** keepContent false deletes their pastes and replies too (by default they stay, as Anonymous). */
  | { kind: 'delete'; keepContent?: boolean }
  | { kind: 'deleteAvatar' }
  | { kind: 'rename'; username: string }
  | { kind: 'grades'; grades: PremiumRankName[] }
  | { kind: 'role'; isAdmin: boolean };

/** The success toasts of the admin actions. */
export const ACTION_TEXTS = {
  ...ADMIN_TEXTS,
  silenced: MODERATION_TEXTS.silencedToast,
  unsilenced: MODERATION_TEXTS.unsilencedToast,
  spammerDeleted: MODERATION_TEXTS.spammerDeleted,
  ranksUpdated: 'Grades updated',
  adminGranted: 'Admin granted',
  adminRevoked: 'Admin revoked',
} as const;

function request(id: number, action: UserAction): Promise<Response> {
  switch (action.kind) {
    case 'ban':
      return apiRequest('POST', API.adminUserBan(id), action.body);
    case 'unban':
      return apiRequest('POST', API.adminUserUnban(id));
    case 'silence':
      return apiRequest('POST', API.adminUserSilence(id), action.body);
    case 'unsilence':
      return apiRequest('POST', API.adminUserUnsilence(id));
    case 'spammer':
      return apiRequest('POST', API.adminUserSpammer(id));
    case 'delete':
      return apiRequest(
        'DELETE',
        action.keepContent === false ? `${API.adminUser(id)}?keepContent=false` : API.adminUser(id),
      );
    case 'deleteAvatar':
      return apiRequest('DELETE', API.adminUserAvatar(id));
    case 'rename':
      return apiRequest('PUT', API.adminUserUsername(id), { username: action.username });
    case 'grades':
      return apiRequest('PUT', API.adminUserGrades(id), { grades: action.grades });
    case 'role':
      return apiRequest('PUT', API.adminUserRole(id), { isAdmin: action.isAdmin });
  }
}

function successTitle(action: UserAction): string {
  switch (action.kind) {
    case 'ban':
      return ACTION_TEXTS.banned;
    case 'unban':
      return ACTION_TEXTS.unbanned;
    case 'silence':
      return ACTION_TEXTS.silenced;
    case 'unsilence':
      return ACTION_TEXTS.unsilenced;
    case 'spammer':
      return ACTION_TEXTS.spammerDeleted;
    case 'delete':
      return ACTION_TEXTS.deleted;
    case 'deleteAvatar':
      return ACTION_TEXTS.avatarDeleted;
    case 'rename':
      return ACTION_TEXTS.renamed;
    case 'grades':
      return ACTION_TEXTS.ranksUpdated;
    case 'role':
      return action.isAdmin ? ACTION_TEXTS.adminGranted : ACTION_TEXTS.adminRevoked;
  }
}

const FAILURES: Record<UserAction['kind'], string> = {
  ban: 'Failed to ban the user',
  unban: 'Failed to unban the user',
  silence: 'Failed to silence the user',
  unsilence: 'Failed to unsilence the user',
  spammer: 'Failed to delete the spammer',
  delete: 'Failed to delete the user',
  deleteAvatar: 'Failed to delete the avatar',
  rename: 'Failed to update the username',
  grades: 'Failed to update the grades',
  role: 'Failed to change admin rights',
};

/**
 * Lists a member's name, avatar or rank appears in, besides the admin table and the audit log: read
 * again when next shown (the forum's caches live in the shell's one query client).
 */
const AFFECTED_LISTS = [
  API.adminUsers,
  API.adminAudit,
  API.users,
  API.threadsRecent,
  API.threadsFeatured,
  API.threads,
  API.search,
];

/**
 * One action on `user`'s account: the call, then the success toast and the lists read again; a refusal (403
 * for the owner's account, say) is toasted with the server's message. An action on the viewer's own
 * account refetches the current user too (a rename or a grade shows in the top bar).
 */
export function useUserAction(user: AdminUser, viewerId: number | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: UserAction) => request(user.id, action),
    onError: (error, action) => toastError(FAILURES[action.kind])(error),
    onSuccess: async (_response, action) => {
      toast({
        title: successTitle(action),
        description: action.kind === 'rename' ? `${user.username} → ${action.username}` : user.username,
      });
      void refreshQueries(client, ...AFFECTED_LISTS.map((key) => [key]));
      if (user.id === viewerId) void refreshQueries(client, currentUserQuery.queryKey);
    },
  });
}

/** The trash (`GET /api/admin/trash?cursor=`): posts deleted in the last 30 days, newest first. */
export const trashQuery = () =>
  infiniteQueryOptions({
    queryKey: [API.adminTrash],
    queryFn: ({ pageParam }) => getJson(withParams(API.adminTrash, { cursor: pageParam }), trashPageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });

/**
 * Restores a paste or a reply from the trash: the toast, then the trash, the audit log and the forum's
 * lists read again (the post is back in them).
 */
export function useRestore() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (entry: Pick<TrashEntry, 'kind' | 'id'>) =>
      apiRequest(
        'POST',
        entry.kind === 'paste' ? API.adminThreadRestore(entry.id) : API.adminReplyRestore(entry.id),
      ),
    onError: toastError('Failed to restore'),
    onSuccess: (_response, entry) => {
      toast({
        title: entry.kind === 'paste' ? OWN_POSTS_MESSAGES.pasteRestored : OWN_POSTS_MESSAGES.replyRestored,
      });
      void refreshQueries(client, [API.adminTrash], [API.adminAudit], ...AFFECTED_LISTS.map((key) => [key]));
    },
  });
}

/** What delete spammer remembered (`GET /api/admin/spam-marks?cursor=`), newest first. */
export const spamMarksQuery = () =>
  infiniteQueryOptions({
    queryKey: [API.adminSpamMarks],
    queryFn: ({ pageParam }) =>
      getJson(withParams(API.adminSpamMarks, { cursor: pageParam }), spamMarksPageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });

/** Forgets a spam mark: the toast, then the marks and the audit log read again. */
export function useForgetSpamMark() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mark: Pick<SpamMark, 'id'>) => apiRequest('DELETE', API.adminSpamMark(mark.id)),
    onError: toastError('Try again in a moment.', MODERATION_TEXTS.forgetFailed),
    onSuccess: () => {
      toast({ title: MODERATION_TEXTS.spamMarkForgotten });
      void refreshQueries(client, [API.adminSpamMarks], [API.adminAudit]);
    },
  });
}
