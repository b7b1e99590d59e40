import { PAGES, PEOPLE_TEXTS, type PersonEntry } from '@termpaste/contracts';
import {
  Avatar,
  Button,
  Card,
  peopleListQuery,
  relativeTime,
  Spinner,
  useChangePeople,
  UserName,
  type PeopleListKind,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';

const LISTS = {
  mutes: {
    title: PEOPLE_TEXTS.mutedTitle,
    help: PEOPLE_TEXTS.mutedHelp,
    empty: PEOPLE_TEXTS.noMutes,
    undo: PEOPLE_TEXTS.unmute,
    since: 'muted',
  },
  blocks: {
    title: PEOPLE_TEXTS.blockedTitle,
    help: PEOPLE_TEXTS.blockedHelp,
    empty: PEOPLE_TEXTS.noBlocks,
    undo: PEOPLE_TEXTS.unblock,
    since: 'blocked',
  },
} as const;

/** One member of a list: who, since when, and UNMUTE or UNBLOCK. */
function PersonItem({ kind, entry }: { kind: PeopleListKind; entry: PersonEntry }) {
  const change = useChangePeople();
  const { member } = entry;
  const list = LISTS[kind];
  return (
    <li className="settings-person" aria-label={member.username}>
      <Avatar user={member} size={32} />
      <div className="settings-person__who">
        <Link to={PAGES.profile(member.id)} className="settings-person__name">
          <UserName user={member} />
        </Link>
        <span className="tp-muted settings-person__since">
          {list.since} {relativeTime(entry.createdAt)}
        </span>
      </div>
      <Button
        variant="outline"
        size="sm"
        loading={change.isPending}
        aria-label={`${list.undo} ${member.username}`}
        onClick={() => change.mutate({ kind, on: false, member })}
      >
        {list.undo}
      </Button>
    </li>
  );
}

function PeopleList({ kind }: { kind: PeopleListKind }) {
  const people = useQuery(peopleListQuery(kind));
  const list = LISTS[kind];
  const count = people.data?.members.length;
  return (
    <Card
      title={list.title}
      className="settings-page"
      actions={count !== undefined && <span className="tp-muted">{count}</span>}
    >
      <p className="tp-prompt settings-intro">{list.help}</p>
      {people.isPending ? (
        <Spinner label="Loading..." />
      ) : people.isError ? (
        <p className="tp-danger">Could not load this list. Try again in a moment.</p>
      ) : people.data.members.length === 0 ? (
        <p className="tp-muted">{list.empty}</p>
      ) : (
        <ul className="settings-people" aria-label={list.title}>
          {people.data.members.map((entry) => (
            <PersonItem key={entry.member.id} kind={kind} entry={entry} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * /settings/people: the members the member muted and blocked, newest first, each with UNMUTE or
 * UNBLOCK. Members are muted and blocked from their profiles.
 */
export function PeopleScreen() {
  return (
    <div className="settings-stack">
      <Card
        titleLevel={1}
        title={PEOPLE_TEXTS.title}
        className="settings-page"
        actions={
          <Link to={PAGES.settings} className="tp-button tp-button--ghost tp-button--sm">
            PROFILE SETTINGS
          </Link>
        }
      >
        <p className="tp-prompt settings-intro">
          Mute or block a member from their profile. Neither tells them; staff cannot be blocked, so they can
          always reach you about moderation.
        </p>
      </Card>
      <PeopleList kind="mutes" />
      <PeopleList kind="blocks" />
    </div>
  );
}
