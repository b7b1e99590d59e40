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
  watchingListQuery,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';

function Pastes({ list }: { list: WatchingList }) {
  const change = useWatchChange();
  return (
    <Card title={WATCHING_TEXTS.pastesTitle} className="settings-page">
      {list.pastes.length === 0 ? (
        <p className="tp-muted">{WATCHING_TEXTS.noPastes}</p>
      ) : (
        <ul className="settings-people" aria-label={WATCHING_TEXTS.pastesTitle}>
          {list.pastes.map((paste) => (
            <li key={String(paste.ref)} className="settings-person" aria-label={paste.title}>
              <div className="settings-person__who">
                <Link to={PAGES.thread(paste.ref)} className="settings-person__name">
                  {paste.title}
                </Link>
                <span className="tp-muted settings-person__since">
                  by {paste.author?.username ?? 'Anonymous'} · watched {relativeTime(paste.watchedAt)}
                </span>
              </div>
              <Button
                variant="outline"
                size="sm"
                disabled={change.isPending}
                aria-label={`${WATCHING_TEXTS.unwatch} ${paste.title}`}
                onClick={() => change.mutate({ what: 'paste', ref: paste.ref, on: false })}
              >
                {WATCHING_TEXTS.unwatch}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Members({ list }: { list: WatchingList }) {
  const change = useWatchChange();
  return (
    <Card title={WATCHING_TEXTS.membersTitle} className="settings-page">
      {list.members.length === 0 ? (
        <p className="tp-muted">{WATCHING_TEXTS.noMembers}</p>
      ) : (
        <ul className="settings-people" aria-label={WATCHING_TEXTS.membersTitle}>
          {list.members.map(({ member, followedAt }) => (
            <li key={member.id} className="settings-person" aria-label={member.username}>
              <Avatar user={member} size={32} />
              <div className="settings-person__who">
                <Link to={PAGES.profile(member.id)} className="settings-person__name">
                  <UserName user={member} />
                </Link>
                <span className="tp-muted settings-person__since">followed {relativeTime(followedAt)}</span>
              </div>
              <Button
                variant="outline"
                size="sm"
                disabled={change.isPending}
                aria-label={`${WATCHING_TEXTS.unfollow} ${member.username}`}
                onClick={() =>
                  change.mutate({ what: 'member', id: member.id, username: member.username, on: false })
                }
              >
                {WATCHING_TEXTS.unfollow}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Tags({ list }: { list: WatchingList }) {
  const change = useWatchChange();
  return (
    <Card title={WATCHING_TEXTS.tagsTitle} className="settings-page">
      {list.tags.length === 0 ? (
        <p className="tp-muted">{WATCHING_TEXTS.noTags}</p>
      ) : (
        <ul className="settings-people" aria-label={WATCHING_TEXTS.tagsTitle}>
          {list.tags.map((tag) => (
            <li key={tag.name} className="settings-person" aria-label={tag.name}>
              <div className="settings-person__who">
                <a href={`/tag/${encodeURIComponent(tag.name)}`} className="settings-person__name">
                  #{tag.name}
                </a>
                <span className="tp-muted settings-person__since">
                  {tag.pasteCount} {tag.pasteCount === 1 ? 'paste' : 'pastes'} · watched{' '}
                  {relativeTime(tag.watchedAt)}
                </span>
              </div>
              <Button
                variant="outline"
                size="sm"
                disabled={change.isPending}
                aria-label={`${WATCHING_TEXTS.unwatch} ${tag.name}`}
                onClick={() => change.mutate({ what: 'tag', name: tag.name, on: false })}
              >
                {WATCHING_TEXTS.unwatch}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
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
