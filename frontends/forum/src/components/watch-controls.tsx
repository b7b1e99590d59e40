import {
  BOOKMARK_NOTE_MAX,
  type BookmarkKind,
  type PasteDetail,
  type PasteRef,
  WATCHING_TEXTS,
} from '@termpaste/contracts';
import {
  Button,
  CharCount,
  FormActions,
  IconButton,
  Input,
  Label,
  LabelRow,
  Modal,
  followQuery,
  pasteWatchQuery,
  tagWatchQuery,
  useBookmarkChange,
  useCurrentUser,
  useWatchChange,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { Bell, BellOff, Bookmark, BookmarkCheck, UserCheck, UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';

/**
 * The paste page's WATCH/UNWATCH and the paste's bookmark, for a signed-in member (a visitor's page
 * reads nothing more). The state is one GET per page view, shared with the replies' bookmark icons.
 */
export function PasteWatchBar({ thread }: { thread: PasteDetail }) {
  const { user } = useCurrentUser();
  const state = useQuery({
    ...pasteWatchQuery(thread.id),
    enabled: user !== null && !thread.burnAfterReading,
  });
  const change = useWatchChange();
  if (user === null || thread.burnAfterReading) return null;
  // Until the state is read, its room kept (unseen, inert): the bar appearing would wrap the top row on a
  // phone and push the whole page down.
  if (!state.data)
    return (
      <span className="forum-watch-bar tp-reserved" aria-hidden="true" inert>
        <Button variant="ghost" size="sm" tabIndex={-1}>
          <Bell size={12} aria-hidden="true" />
          {WATCHING_TEXTS.watch}
        </Button>
        <IconButton size="sm" label={WATCHING_TEXTS.bookmark} icon={<Bookmark size={14} />} tabIndex={-1} />
      </span>
    );
  const watching = state.data.watching;
  return (
    <span className="forum-watch-bar">
      <Button
        variant={watching ? 'outline' : 'ghost'}
        size="sm"
        loading={change.isPending}
        aria-pressed={watching}
        onClick={() => change.mutate({ what: 'paste', ref: thread.id, on: !watching })}
      >
        {watching ? <BellOff size={12} aria-hidden="true" /> : <Bell size={12} aria-hidden="true" />}
        {watching ? WATCHING_TEXTS.unwatch : WATCHING_TEXTS.watch}
      </Button>
      <BookmarkButton
        kind="paste"
        target={thread.id}
        pasteRef={thread.id}
        note={state.data.pasteBookmark}
        what={`paste ${thread.title}`}
      />
    </span>
  );
}

/** A reply's bookmark icon on its paste's page (the page's watch state says whether it is saved). */
export function ReplyBookmark({ replyId, pasteRef }: { replyId: number; pasteRef: PasteRef }) {
  const { user } = useCurrentUser();
  const state = useQuery({ ...pasteWatchQuery(pasteRef), enabled: user !== null });
  if (user === null) return null;
  // Its room kept until the state is read: the icon arriving could wrap the reply's buttons.
  if (!state.data)
    return (
      <span className="tp-reserved" aria-hidden="true" inert>
        <IconButton size="sm" label={WATCHING_TEXTS.bookmark} icon={<Bookmark size={14} />} tabIndex={-1} />
      </span>
    );
  const saved = state.data.replyBookmarks.find((entry) => entry.replyId === replyId);
  return (
    <BookmarkButton
      kind="reply"
      target={replyId}
      pasteRef={pasteRef}
      note={saved ? saved.note : false}
      what="reply"
    />
  );
}

/**
 * A bookmark icon: it opens a small dialog to save the bookmark with an optional note, change the note, or
 * remove it. `note` false: not bookmarked.
 */
export function BookmarkButton({
  kind,
  target,
  pasteRef,
  note,
  what,
}: {
  kind: BookmarkKind;
  target: PasteRef;
  pasteRef?: PasteRef;
  note: string | null | false;
  what: string;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const change = useBookmarkChange();
  const saved = note !== false;
  const label = saved ? `${WATCHING_TEXTS.bookmarked}: ${what}` : `${WATCHING_TEXTS.bookmark} ${what}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ kind, target, pasteRef, note: text }, { onSuccess: () => setOpen(false) });
  };
  return (
    <>
      <IconButton
        size="sm"
        label={label}
        aria-pressed={saved}
        className={saved ? 'forum-bookmark--on' : undefined}
        icon={saved ? <BookmarkCheck size={14} /> : <Bookmark size={14} />}
        onClick={() => {
          setText(note || '');
          setOpen(true);
        }}
      />
      <Modal open={open} onOpenChange={setOpen} title={`${WATCHING_TEXTS.bookmark.toUpperCase()} ${what}`}>
        <form onSubmit={submit} className="forum-bookmark-form">
          <LabelRow>
            <Label htmlFor={`bookmark-note-${kind}-${target}`}>{WATCHING_TEXTS.noteLabel}</Label>
            <CharCount length={text.length} max={BOOKMARK_NOTE_MAX} />
          </LabelRow>
          <Input
            id={`bookmark-note-${kind}-${target}`}
            value={text}
            maxLength={BOOKMARK_NOTE_MAX}
            autoFocus
            onChange={(event) => setText(event.target.value)}
          />
          <FormActions>
            {saved && (
              <Button
                type="button"
                variant="danger"
                size="sm"
                disabled={change.isPending}
                onClick={() => change.mutate({ kind, target, pasteRef }, { onSuccess: () => setOpen(false) })}
              >
                {WATCHING_TEXTS.removeBookmark}
              </Button>
            )}
            <Button type="submit" size="sm" loading={change.isPending}>
              {WATCHING_TEXTS.saveNote}
            </Button>
          </FormActions>
        </form>
      </Modal>
    </>
  );
}

/** FOLLOW/UNFOLLOW on a member's profile (not one's own; signed in only). */
export function FollowButton({ member }: { member: { id: number; username: string } }) {
  const { user } = useCurrentUser();
  const mine = user !== null && user.id === member.id;
  const state = useQuery({ ...followQuery(member.id), enabled: user !== null && !mine });
  const change = useWatchChange();
  if (user === null || mine || !state.data) return null;
  const following = state.data.following;
  return (
    <Button
      variant="outline"
      size="sm"
      loading={change.isPending}
      aria-pressed={following}
      onClick={() =>
        change.mutate({ what: 'member', id: member.id, username: member.username, on: !following })
      }
    >
      {following ? <UserCheck size={14} aria-hidden="true" /> : <UserPlus size={14} aria-hidden="true" />}
      {following ? WATCHING_TEXTS.unfollow : WATCHING_TEXTS.follow}
    </Button>
  );
}

/** WATCH TAG/UNWATCH TAG for the /tag/{name} page (signed in only). */
export function WatchTagButton({ name }: { name: string }) {
  const { user } = useCurrentUser();
  const state = useQuery({ ...tagWatchQuery(name), enabled: user !== null, retry: false });
  const change = useWatchChange();
  if (user === null || !state.data) return null;
  const watching = state.data.watching;
  return (
    <Button
      variant="outline"
      size="sm"
      loading={change.isPending}
      aria-pressed={watching}
      onClick={() => change.mutate({ what: 'tag', name, on: !watching })}
    >
      {watching ? <BellOff size={12} aria-hidden="true" /> : <Bell size={12} aria-hidden="true" />}
      {watching ? WATCHING_TEXTS.unwatchTag : WATCHING_TEXTS.watchTag}
    </Button>
  );
}
