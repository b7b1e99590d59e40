import { PAGES, WATCHING_TEXTS, type WatchingList } from '@termpaste/contracts';
import {
  Avatar,
  Button,
  Card,
  relativeTime,
  Spinner,
  useAutoWatch,
  UserName,
  useWatchChange,
  type WatchChange,
  watchingListQuery,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import type { Key, ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** What one row of a watch list shows: its accessible name, an optional picture, the link and the line under it. */
interface WatchRow {
  key: Key;
  name: string;
  picture?: ReactNode;
  link: ReactNode;
  detail: ReactNode;
}

/** One section of the watching screen: a titled list whose rows each have a button that stops watching. */
function WatchList<Item>({
  title,
  empty,
  items,
  row,
  stopText,
  stop,
}: {
  title: string;
  empty: string;
  items: Item[];
  row: (item: Item) => WatchRow;
  stopText: string;
  stop: (item: Item) => WatchChange;
}) {
  const change = useWatchChange();
  return (
    <Card title={title} className="settings-page">
      {items.length === 0 ? (
        <p className="tp-muted">{empty}</p>
      ) : (
        <ul className="settings-people" aria-label={title}>
          {items.map((item) => {
            const { key, name, picture, link, detail } = row(item);
            return (
              <li key={key} className="settings-person" aria-label={name}>
                {picture}
                <div className="settings-person__who">
                  {link}
                  <span className="tp-muted settings-person__since">{detail}</span>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={change.isPending}
                  aria-label={`${stopText} ${name}`}
                  onClick={() => change.mutate(stop(item))}
                >
                  {stopText}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function Pastes({ list }: { list: WatchingList }) {
  return (
    <WatchList
      title={WATCHING_TEXTS.pastesTitle}
      empty={WATCHING_TEXTS.noPastes}
      items={list.pastes}
      row={(paste) => ({
        key: String(paste.ref),
        name: paste.title,
        link: (
          <Link to={PAGES.thread(paste.ref)} className="settings-person__name">
            {paste.title}
          </Link>
        ),
        detail: `by ${paste.author?.username ?? 'Anonymous'} · watched ${relativeTime(paste.watchedAt)}`,
      })}
      stopText={WATCHING_TEXTS.unwatch}
      stop={(paste) => ({ what: 'paste', ref: paste.ref, on: false })}
    />
  );
}

function Members({ list }: { list: WatchingList }) {
  return (
    <WatchList
      title={WATCHING_TEXTS.membersTitle}
      empty={WATCHING_TEXTS.noMembers}
      items={list.members}
      row={({ member, followedAt }) => ({
        key: member.id,
        name: member.username,
        picture: <Avatar user={member} size={32} />,
        link: (
          <Link to={PAGES.profile(member.id)} className="settings-person__name">
            <UserName user={member} />
          </Link>
        ),
        detail: `followed ${relativeTime(followedAt)}`,
      })}
      stopText={WATCHING_TEXTS.unfollow}
      stop={({ member }) => ({ what: 'member', id: member.id, username: member.username, on: false })}
    />
  );
}

function Tags({ list }: { list: WatchingList }) {
  return (
    <WatchList
      title={WATCHING_TEXTS.tagsTitle}
      empty={WATCHING_TEXTS.noTags}
      items={list.tags}
      row={(tag) => ({
        key: tag.name,
        name: tag.name,
        link: (
          <a href={`/tag/${encodeURIComponent(tag.name)}`} className="settings-person__name">
            #{tag.name}
          </a>
        ),
        detail: `${tag.pasteCount} ${tag.pasteCount === 1 ? 'paste' : 'pastes'} · watched ${relativeTime(tag.watchedAt)}`,
      })}
      stopText={WATCHING_TEXTS.unwatch}
      stop={(tag) => ({ what: 'tag', name: tag.name, on: false })}
    />
  );
}

/**
 * /settings/watching: the pastes and tags the member watches and the members they follow, each with
 * UNWATCH or UNFOLLOW, and whether they watch what they post and reply to.
 */
export function WatchingScreen() {
  const list = useQuery(watchingListQuery);
  const autoWatch = useAutoWatch();
  return (
    <div className="settings-stack">
      <Card
        titleLevel={1}
        title={WATCHING_TEXTS.watchingTitle}
        className="settings-page"
        actions={
          <Link to={PAGES.bookmarks} className="tp-button tp-button--ghost tp-button--sm">
            BOOKMARKS
          </Link>
        }
      >
        <p className="tp-prompt settings-intro">{WATCHING_TEXTS.watchingHelp}</p>
        {list.data && (
          <label className="settings-scope">
            <input
              type="checkbox"
              checked={autoWatch.isPending ? autoWatch.variables : list.data.autoWatch}
              disabled={autoWatch.isPending}
              onChange={(event) => autoWatch.mutate(event.target.checked)}
            />
            <span>{WATCHING_TEXTS.autoWatch}</span>
          </label>
        )}
      </Card>
      {list.isPending ? (
        <Spinner label="Loading..." />
      ) : list.isError ? (
        <p className="tp-danger">Could not load this list. Try again in a moment.</p>
      ) : (
        <>
          <Pastes list={list.data} />
          <Members list={list.data} />
          <Tags list={list.data} />
        </>
      )}
    </div>
  );
}
