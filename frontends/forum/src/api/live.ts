import {
  API,
  PASTE_LIVE_EVENT,
  LIVE_WATCH_CARDS_MAX,
  pasteDetailSchema,
  type LiveEvent,
  parsePasteRef,
  type PasteRef,
  type RecentPastesPage,
  type ReplyView,
  type PasteCard,
  type PasteDetail,
} from '@termpaste/contracts';
import { getJson, refreshQueries, useLiveEvents } from '@termpaste/ui';
import { useQueryClient, type InfiniteData, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { featuredPastesQuery, recentPastesQuery, pasteQuery } from './pastes';
import { asDeleted, withoutDeadBranches } from '../lib/reply-tree';

/*
 * The forum's live updates, through the tab's one live socket (visitors too). What an event carries is
 * written into the cached page at once; what it does not (a new reply's text, an edit) is read again
 * with `?refresh=true`, which counts no view and is cheap thanks to the server's page cache.
 */

/** How long before reading again a paste whose change the first read did not show yet. */
export const LIVE_RETRY_MS = 1000;
/**
 * How many more times SHOW reads a list that lacks the pastes it announced, LIVE_RETRY_MS apart: past
 * the few seconds a cache in front may keep the list (the backend's s-maxage).
 */
const SHOW_READS_MAX = 8;

type PasteEvent = Extract<LiveEvent, { threadId: PasteRef }>;

function isPasteEvent(event: LiveEvent): event is PasteEvent {
  return 'threadId' in event;
}

/** Drops a reply and every reply under it. */
export function withoutReply(replies: ReplyView[], replyId: number): ReplyView[] {
  const gone = new Set([replyId]);
  // Replies come oldest first, so a parent is always met before its answers.
  return replies.filter((reply) => {
    if (gone.has(reply.id) || (reply.parentId !== null && gone.has(reply.parentId))) {
      gone.add(reply.id);
      return false;
    }
    return true;
  });
}

/** A paste's page with what `event` says changed, or the page as it was when it says nothing of it. */
export function patchPaste(thread: PasteDetail, event: PasteEvent): PasteDetail {
  switch (event.type) {
    case PASTE_LIVE_EVENT.voteScore:
      if (event.replyId === null) return { ...thread, voteScore: event.voteScore };
      return {
        ...thread,
        replies: thread.replies.map((reply) =>
          reply.id === event.replyId ? { ...reply, voteScore: event.voteScore } : reply,
        ),
      };
    case PASTE_LIVE_EVENT.pasteFlags:
      return { ...thread, isPinned: event.isPinned, isLocked: event.isLocked, isFeatured: event.isFeatured };
    case PASTE_LIVE_EVENT.replyDeleted:
      // Its author's delete takes the reply alone (a placeholder while replies stand under it); staff's,
      // the replies under it too.
      return {
        ...thread,
        replyCount: event.replyCount,
        replies: withoutDeadBranches(
          event.alone
            ? thread.replies.map((reply) => (reply.id === event.replyId ? asDeleted(reply) : reply))
            : withoutReply(thread.replies, event.replyId),
        ),
      };
    default:
      return thread;
  }
}

/** A card with what `event` says changed (its counts, flags, title). */
export function patchCard(card: PasteCard, event: PasteEvent): PasteCard {
  if (card.id !== event.threadId) return card;
  switch (event.type) {
    case PASTE_LIVE_EVENT.voteScore:
      return event.replyId === null ? { ...card, voteScore: event.voteScore } : card;
    case PASTE_LIVE_EVENT.replyAdded:
    case PASTE_LIVE_EVENT.replyDeleted:
      return { ...card, replyCount: event.replyCount };
    case PASTE_LIVE_EVENT.pasteFlags:
      return { ...card, isPinned: event.isPinned, isLocked: event.isLocked, isFeatured: event.isFeatured };
    case PASTE_LIVE_EVENT.pasteEdited:
      return { ...card, title: event.title };
    default:
      return card;
  }
}

/** Writes a paste's event into every cached list that shows its card (home's pages, /hardest). */
export function patchLists(client: QueryClient, event: PasteEvent): void {
  client.setQueryData(recentPastesQuery.queryKey, (data: InfiniteData<RecentPastesPage> | undefined) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            pinned: page.pinned.map((card) => patchCard(card, event)),
            threads: page.threads.map((card) => patchCard(card, event)),
          })),
        }
      : data,
  );
  client.setQueryData(featuredPastesQuery.queryKey, (cards: PasteCard[] | undefined) =>
    cards?.map((card) => patchCard(card, event)),
  );
}

export interface PasteLive {
  /** Members reading the paste now (this one included), once the server said. */
  readers: number | undefined;
  /** Staff deleted the paste while it was open. */
  deleted: boolean;
  /** Replies others posted since the page loaded, newest last (the page decides which are out of view). */
  arrived: number[];
  /** The page has dealt with these arrivals. */
  seen(ids: number[]): void;
}

/**
 * A paste's live updates while its page is open: scores, flags and deletions written into the cached
 * page; a new reply or an edit read again; how many members read it. A reply from someone else is listed
 * in `arrived` once the page holds it (the page shows a pill for those out of view).
 */
export function usePasteLive(id: string, enabled: boolean, userId: number | null): PasteLive {
  const client = useQueryClient();
  const [readers, setReaders] = useState<number | undefined>(undefined);
  const [deleted, setDeleted] = useState(false);
  const [arrived, setArrived] = useState<number[]>([]);
  // The paste's ref: a keyed paste is watched by its key, and its events name it so.
  const threadId = parsePasteRef(id);
  const key = pasteQuery(id).queryKey;
  const refresher = useRef<{
    running: boolean;
    /** What the next read must show, when one was asked for while a read ran. */
    next?: (thread: PasteDetail) => boolean;
    timer?: ReturnType<typeof setTimeout>;
  }>({ running: false });

  useEffect(() => {
    setReaders(undefined);
    setDeleted(false);
    setArrived([]);
    const state = refresher.current;
    return () => clearTimeout(state.timer);
  }, [id]);

  /** Reads the paste again (no view counted); once more a second later if `shows` is not yet true of it. */
  const refresh = useCallback(
    (shows: (thread: PasteDetail) => boolean = () => true) => {
      const state = refresher.current;
      if (state.running) {
        state.next = shows;
        return;
      }
      state.running = true;
      const read = async (retried: boolean): Promise<void> => {
        try {
          const fresh = await getJson(`${API.thread(id)}?refresh=true`, pasteDetailSchema);
          client.setQueryData(key, fresh);
          if (!shows(fresh) && !retried) {
            await new Promise<void>((resolve) => (state.timer = setTimeout(resolve, LIVE_RETRY_MS)));
            return read(true);
          }
        } catch {
          // Gone (deleted: its own event says so) or unreachable: the next event or reconnection tries again.
        }
      };
      void read(false).finally(() => {
        state.running = false;
        const next = state.next;
        state.next = undefined;
        if (next) refresh(next);
      });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is id's
    [client, id],
  );

  useLiveEvents({
    enabled,
    scope: 'public',
    watch: enabled && threadId !== null ? { thread: threadId } : undefined,
    onEvent: (event) => {
      if (!isPasteEvent(event) || event.threadId !== threadId) return;
      const cached = client.getQueryData<PasteDetail>(key);
      switch (event.type) {
        case PASTE_LIVE_EVENT.threadReaders:
          setReaders(event.count);
          return;
        case PASTE_LIVE_EVENT.pasteDeleted:
          setDeleted(true);
          return;
        case PASTE_LIVE_EVENT.replyAdded: {
          if (event.authorId === null || event.authorId !== userId) {
            setArrived((ids) => (ids.includes(event.replyId) ? ids : [...ids, event.replyId]));
          }
          if (cached?.replies.some((reply) => reply.id === event.replyId)) return;
          refresh((thread) => thread.replies.some((reply) => reply.id === event.replyId));
          return;
        }
        case PASTE_LIVE_EVENT.pasteEdited:
          if (cached?.editedAt === event.editedAt) return;
          refresh((thread) => thread.editedAt === event.editedAt);
          return;
        case PASTE_LIVE_EVENT.replyEdited:
          if (cached?.replies.find((reply) => reply.id === event.replyId)?.editedAt === event.editedAt)
            return;
          refresh(
            (thread) => thread.replies.find((r) => r.id === event.replyId)?.editedAt === event.editedAt,
          );
          return;
        default:
          client.setQueryData(key, (thread: PasteDetail | undefined) =>
            thread ? patchPaste(thread, event) : thread,
          );
      }
    },
    // Events may have been missed while the socket was down: read the paste again.
    onOpen: (reconnected) => {
      if (reconnected) refresh();
    },
  });

  const seen = useCallback((ids: number[]) => {
    setArrived((current) => current.filter((replyId) => !ids.includes(replyId)));
  }, []);

  return { readers, deleted, arrived, seen };
}

/**
 * A list's live updates (home, /hardest): its cards' counts, flags and titles as they change, and the
 * pastes that belong in it since it loaded (`isNew` says which; a deleted paste never does), counted for
 * the news bar; `show` clears the count and loads the list (`queryKey`) again.
 */
export function useListLive({
  shown,
  queryKey,
  isNew,
}: {
  /** The ids of the cards on screen (watched: at most the first 200). */
  shown: PasteRef[];
  /** The list's query, refreshed by `show`. */
  queryKey: QueryKey;
  /** Whether an event puts a paste in this list (true), takes it out (false), or says nothing of it. */
  isNew: (event: PasteEvent) => boolean | undefined;
}): { count: number; show: () => void } {
  const client = useQueryClient();
  const [fresh, setFresh] = useState<PasteRef[]>([]);
  const shownIds = useMemo(() => new Set(shown), [shown]);

  useLiveEvents({
    enabled: true,
    scope: 'public',
    watch: { lists: true, cards: shown.slice(0, LIVE_WATCH_CARDS_MAX) },
    onEvent: (event) => {
      if (!isPasteEvent(event)) return;
      patchLists(client, event);
      const verdict = event.type === PASTE_LIVE_EVENT.pasteDeleted ? false : isNew(event);
      if (verdict === true && !shownIds.has(event.threadId)) {
        setFresh((ids) => (ids.includes(event.threadId) ? ids : [...ids, event.threadId]));
      } else if (verdict === false) {
        setFresh((ids) => ids.filter((threadId) => threadId !== event.threadId));
      }
    },
  });

  // What SHOW asked for, and how many more reads it may take: a cache in front (nginx, a CDN) may hand a
  // visitor the list from a few seconds before the paste came, so it is read again until it shows.
  const [asked, setAsked] = useState<{ ids: PasteRef[]; left: number }>({ ids: [], left: 0 });
  const show = useCallback(() => {
    setAsked({ ids: fresh.filter((threadId) => !shownIds.has(threadId)), left: SHOW_READS_MAX });
    setFresh([]);
    void refreshQueries(client, queryKey);
  }, [client, queryKey, fresh, shownIds]);
  const missing = asked.left > 0 && asked.ids.some((threadId) => !shownIds.has(threadId));
  useEffect(() => {
    if (!missing) return;
    const timer = setTimeout(() => {
      setAsked((before) => ({ ...before, left: before.left - 1 }));
      void refreshQueries(client, queryKey);
    }, LIVE_RETRY_MS);
    return () => clearTimeout(timer);
  }, [missing, asked, client, queryKey]);
  // A paste heard of while SHOW's read was on its way is on screen once it lands: news no more.
  const count = fresh.filter((threadId) => !shownIds.has(threadId)).length;
  return { count, show };
}
