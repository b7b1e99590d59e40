import {
  API,
  PEOPLE_TEXTS,
  peopleListSchema,
  personEntrySchema,
  type PeopleList,
} from '@termpaste/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiRequest, getJson, sendJson } from '../api/client.js';
import { toastError } from '../api/form-call.js';
import { useCurrentUser } from '../api/current-user.js';
import { toast } from '../components/toast-store.js';

/** The member's two lists. */
export type PeopleListKind = 'mutes' | 'blocks';

const LIST_URL: Record<PeopleListKind, string> = { mutes: API.userMutes, blocks: API.userBlocks };
const memberUrl = (kind: PeopleListKind, id: number) =>
  kind === 'mutes' ? API.userMute(id) : API.userBlock(id);

/**
 * `GET /api/user/mutes` and `GET /api/user/blocks`: one query each for every screen of the tab (forum,
 * chat, settings), read again after each change the member makes.
 */
export const peopleListQuery = (kind: PeopleListKind) =>
  queryOptions({
    queryKey: [LIST_URL[kind]],
    queryFn: () => getJson(LIST_URL[kind], peopleListSchema),
    // The lists change only when this member changes them (invalidated then).
    staleTime: 5 * 60_000,
    refetchInterval: false,
  });

/** What the member's screens do with a post by member `authorId`: show it, collapse it, or hide it. */
export type PersonState = 'blocked' | 'muted' | null;

export interface People {
  /** Both lists are read (always, for a visitor: they have none). */
  isReady: boolean;
  muted: ReadonlySet<number>;
  blocked: ReadonlySet<number>;
  /** A block wins over a mute; no author (a deleted account) is neither. */
  stateOf(authorId: number | null | undefined): PersonState;
}

const NOBODY: ReadonlySet<number> = new Set();

function idsOf(list: PeopleList | undefined): ReadonlySet<number> {
  return list ? new Set(list.members.map((entry) => entry.member.id)) : NOBODY;
}

/** Whom the signed-in member muted and blocked (nobody for a visitor, and until the lists arrive). */
export function usePeople(): People {
  const { user } = useCurrentUser();
  const signedIn = user !== null;
  const mutes = useQuery({ ...peopleListQuery('mutes'), enabled: signedIn });
  const blocks = useQuery({ ...peopleListQuery('blocks'), enabled: signedIn });
  return useMemo(() => {
    const muted = signedIn ? idsOf(mutes.data) : NOBODY;
    const blocked = signedIn ? idsOf(blocks.data) : NOBODY;
    return {
      isReady: !signedIn || (mutes.data !== undefined && blocks.data !== undefined),
      muted,
      blocked,
      stateOf: (authorId) => {
        if (authorId === null || authorId === undefined) return null;
        if (blocked.has(authorId)) return 'blocked';
        return muted.has(authorId) ? 'muted' : null;
      },
    };
  }, [signedIn, mutes.data, blocks.data]);
}

export interface PeopleChange {
  kind: PeopleListKind;
  /** true: put on the list; false: take off. */
  on: boolean;
  member: { id: number; username: string };
}

function changedToast({ kind, on, member }: PeopleChange): string {
  if (kind === 'mutes') return (on ? PEOPLE_TEXTS.mutedToast : PEOPLE_TEXTS.unmutedToast)(member.username);
  return (on ? PEOPLE_TEXTS.blockedToast : PEOPLE_TEXTS.unblockedToast)(member.username);
}

/**
 * Mutes, unmutes, blocks or unblocks a member: a toast, and the lists read again so every screen of the tab
 * follows at once (a block: the inbox and notifications too, which the server filters). A refusal (staff
 * cannot be blocked) is an error toast with the server's message.
 */
export function useChangePeople() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: PeopleChange) => {
      const url = memberUrl(change.kind, change.member.id);
      if (change.on) await sendJson('PUT', url, personEntrySchema);
      else await apiRequest('DELETE', url);
    },
    onSuccess: async (_result, change) => {
      toast({ title: changedToast(change) });
      await client.invalidateQueries({ queryKey: peopleListQuery(change.kind).queryKey });
      // The server leaves a blocked member's messages and notifications out (and back in when unblocked).
      if (change.kind === 'blocks') {
        for (const key of [API.messages, API.notifications, API.notificationsUnreadCount]) {
          await client.invalidateQueries({ queryKey: [key] });
        }
      }
    },
    onError: toastError('Could not change your lists. Try again in a moment.'),
  });
}
