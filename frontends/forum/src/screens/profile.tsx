import {
  nextRank,
  PAGES,
  pointsToNextRank,
  rankFromReputation,
  TEXTS,
  authorRank,
  type UserProfile,
  FEEDS,
} from '@termpaste/contracts';
import { canReadReputationLedger } from '@termpaste/contracts/reputation';
import {
  Avatar,
  Badge,
  Card,
  FlagButton,
  Markdown,
  PeopleButtons,
  RankBadge,
  shortDate,
  Spinner,
  UserName,
  useCurrentUser,
} from '@termpaste/ui';
import { useQuery } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { NotFoundCard } from '../components/not-found';
import { profileQuery } from '../api/pastes';
import { ReputationLedger } from '../components/reputation-ledger';
import { PasteCardList } from '../components/paste-card';
import { FeedLink } from '../components/feed-link';
import { isNotFoundError, isRecordId } from '../lib/not-found';
import { FollowButton } from '../components/watch-controls';

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="forum-stat">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Where the member stands on the reputation ladder, and how far the next rank is. */
function RankStatus({ profile }: { profile: UserProfile }) {
  const current = rankFromReputation(profile.reputation);
  const next = nextRank(profile.reputation);
  const floor = Number.isFinite(current.minReputation) ? current.minReputation : 0;
  const progress = next
    ? Math.min(100, Math.max(0, ((profile.reputation - floor) / (next.minReputation - floor)) * 100))
    : 100;
  return (
    <Card title="RANK STATUS">
      <p>
        Reputation rank: <RankBadge rank={current} />
        {profile.activePremiumRank && (
          <>
            {' '}
            · active grade: <RankBadge rank={authorRank(profile)} />
          </>
        )}
      </p>
      <div
        className="forum-progress"
        role="progressbar"
        aria-label="Progress to the next rank"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(progress)}
      >
        <span style={{ width: `${progress}%` }} />
      </div>
      <p className="forum-muted">
        {next
          ? `${pointsToNextRank(profile.reputation)} points needed to reach ${next.name}`
          : 'Top rank reached: Legend.'}
      </p>
    </Card>
  );
}

function ProfileView({
  profile,
  viewerId,
  showLedger,
}: {
  profile: UserProfile;
  viewerId: number | null;
  /** The member's own profile, or an admin's view: the reputation ledger shows. */
  showLedger: boolean;
}) {
  const canMessage = viewerId !== null && viewerId !== profile.id;
  return (
    <div className="forum-stack">
      <FeedLink href={FEEDS.user(profile.id)} title={`pastes by ${profile.username}`} />
      <Card
        title="PROFILE"
        actions={
          canMessage && (
            <>
              <Link
                to={PAGES.messagesTo(profile.username)}
                className="tp-button tp-button--outline tp-button--sm"
              >
                <Mail aria-hidden="true" size={14} /> SEND MESSAGE
              </Link>
              <FlagButton targetType="member" targetId={profile.id} what={`member ${profile.username}`} />
            </>
          )
        }
      >
        <div className="forum-split">
          <Avatar user={profile} size={96} />
          <div className="forum-split__main">
            <h1 className="forum-profile__name">
              <UserName user={profile} />
              <RankBadge rank={authorRank(profile)} />
              {profile.isOwner && <Badge variant="warning">OWNER</Badge>}
              {!profile.isOwner && profile.isAdmin && <Badge variant="accent">ADMIN</Badge>}
              {profile.isBanned && <Badge variant="danger">BANNED</Badge>}
            </h1>
            {(profile.firstName || profile.lastName) && (
              <p className="forum-muted">{[profile.firstName, profile.lastName].filter(Boolean).join(' ')}</p>
            )}
            {profile.bio?.trim() ? (
              <Markdown className="forum-profile__bio">{profile.bio}</Markdown>
            ) : (
              <p className="forum-muted">No bio yet.</p>
            )}
            <dl className="forum-stats">
              <Stat label="Rep" value={profile.reputation} />
              <Stat label="Threads" value={profile.threadCount} />
              <Stat label="Replies" value={profile.replyCount} />
              <Stat label="Joined" value={shortDate(profile.createdAt)} />
            </dl>
            <PeopleButtons member={profile} />
            <FollowButton member={profile} />
          </div>
        </div>
      </Card>
      <RankStatus profile={profile} />
      {showLedger && <ReputationLedger userId={profile.id} />}
      <Card title="RECENT PASTES">
        {profile.recentThreads.length === 0 ? (
          <p className="forum-muted">No threads posted yet</p>
        ) : (
          <PasteCardList threads={profile.recentThreads} label="Recent pastes" />
        )}
      </Card>
    </div>
  );
}

/** /profile/{id} and /user/{id}; /profile alone shows your own. */
export function ProfileScreen() {
  const { id: param } = useParams();
  const { user } = useCurrentUser();
  const id = param ?? (user ? String(user.id) : '');
  const profile = useQuery({ ...profileQuery(id), enabled: isRecordId(id) });

  if (!isRecordId(id) || isNotFoundError(profile.error)) return <NotFoundCard text={TEXTS.userNotFound} />;
  if (profile.isError) {
    return (
      <Card titleLevel={1} title="ERROR">
        <p className="forum-error">Could not load this profile. Try again in a moment.</p>
      </Card>
    );
  }
  if (!profile.data) return <Spinner label="Loading profile..." />;
  return (
    <ProfileView
      profile={profile.data}
      viewerId={user?.id ?? null}
      showLedger={canReadReputationLedger(user, profile.data.id)}
    />
  );
}
