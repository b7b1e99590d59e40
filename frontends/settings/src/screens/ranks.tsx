import {
  REPUTATION,
  effectiveRank,
  nextRank,
  PAGES,
  pointsToNextRank,
  PREMIUM_RANKS,
  RANK_LADDER,
  rankFromReputation,
  type CurrentUser,
  type Rank,
} from '@termpaste/contracts';
import {
  Badge,
  Button,
  Card,
  RankBadge,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  useCurrentUser,
} from '@termpaste/ui';
import { Link } from 'react-router-dom';
import { useSelectRank } from '../api/settings';
import { ProgressBar } from '../components/progress-bar';

export const RANKS_SIGNED_OUT = 'You must be logged in to manage your ranks.';

/** How far the member is from the next rank up the ladder, in percent. */
function ladderProgress(reputation: number): number {
  const current = rankFromReputation(reputation);
  const next = nextRank(reputation);
  if (!next) return 100;
  const floor = Number.isFinite(current.minReputation) ? current.minReputation : 0;
  return ((reputation - floor) / (next.minReputation - floor)) * 100;
}

/** Where a ladder rank starts, for people. */
const threshold = (min: number) =>
  Number.isFinite(min) ? `${min}+` : `below ${RANK_LADDER[1]!.minReputation}`;

/** 'Use This' (upper-cased like every button), or the 'Active' tag on the rank in use. */
function Choice({
  active,
  name,
  pending,
  onSelect,
}: {
  active: boolean;
  name: string;
  pending: boolean;
  onSelect: () => void;
}) {
  if (active) {
    return (
      <Badge variant="accent" className="settings-rank__active" title={`${name} is active`}>
        Active
      </Badge>
    );
  }
  return (
    <Button size="sm" variant="outline" disabled={pending} title={`Use ${name}`} onClick={onSelect}>
      Use This
    </Button>
  );
}

/** A grade's look: its badge and the member's name in its style. */
function RankPreview({ rank, username }: { rank: Rank; username: string }) {
  return (
    <span className="settings-grade__preview">
      <RankBadge rank={rank} />
      <span className={`tp-username rank-${rank.style}`} data-testid="name-preview">
        {username}
      </span>
    </span>
  );
}

function RanksView({ user }: { user: CurrentUser }) {
  const select = useSelectRank();
  const owned = PREMIUM_RANKS.filter((rank) => user.ownedPremiumRanks.includes(rank.name));
  const shown = effectiveRank(user);
  const activeRank = shown.isPremium ? shown : null;
  const reputationRank = rankFromReputation(user.reputation);
  const next = nextRank(user.reputation);
  const choose = (rankName: string | null) => select.mutate(rankName);

  return (
    <div className="settings-stack">
      {/* The screen's name for a screen reader: its cards below are its parts (h2). */}
      <h1 className="tp-sr-only">RANKS</h1>
      <Card title="ACTIVE RANK">
        {activeRank ? (
          <div className="settings-active">
            <RankPreview rank={activeRank} username={user.username} />
            <p className="tp-muted">
              Your VIP grade <strong>{activeRank.name}</strong> is shown beside your name everywhere.
            </p>
          </div>
        ) : (
          <p className="tp-muted">
            No VIP grade is active: your reputation rank <RankBadge rank={reputationRank} /> is shown.
          </p>
        )}
      </Card>

      <Card title="REPUTATION RANK">
        <div className="settings-rank" role="group" aria-label="Reputation rank">
          <div className="settings-rank__head">
            <RankBadge rank={reputationRank} />
            <span className={`settings-rank__name rank-${reputationRank.style}`}>{reputationRank.name}</span>
            <span className="tp-muted">
              <strong className="tp-glow">{user.reputation}</strong> reputation
            </span>
            <span className="settings-rank__choice">
              <Choice
                active={!activeRank}
                name={reputationRank.name}
                pending={select.isPending}
                onSelect={() => choose(null)}
              />
            </span>
          </div>
          <ProgressBar value={ladderProgress(user.reputation)} label="Progress to the next rank" />
          <p className="tp-muted settings-hint">
            {next
              ? `${pointsToNextRank(user.reputation)} points needed to reach ${next.name}`
              : 'Top rank reached: Legend.'}
          </p>
        </div>
      </Card>

      <Card title="VIP GRADES">
        {owned.length === 0 ? (
          <p className="tp-muted" data-testid="no-grades">
            You do not own any VIP grades yet. Visit the <Link to={PAGES.upgrades}>Upgrades</Link> page to see
            them and how to get one.
          </p>
        ) : (
          <ul className="settings-grades" aria-label="Owned VIP grades">
            {owned.map((rank) => (
              <li
                key={rank.name}
                className="settings-grade"
                data-active={activeRank?.name === rank.name || undefined}
                aria-label={rank.name}
              >
                <RankPreview rank={rank} username={user.username} />
                <span className="settings-grade__name">{rank.name}</span>
                <Choice
                  active={activeRank?.name === rank.name}
                  name={rank.name}
                  pending={select.isPending}
                  onSelect={() => choose(rank.name)}
                />
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card title="REPUTATION LADDER">
        <p className="tp-muted settings-hint">
          Earn reputation: +{REPUTATION.thread} per paste, +{REPUTATION.reply} per reply, +
          {REPUTATION.chatMessage} per chat message, +{REPUTATION.voteReceived} per up-vote received (−
          {REPUTATION.voteReceived} per down-vote), up to a daily cap for each; your profile lists every
          point.
        </p>
        <Table aria-label="Reputation ladder">
          <TableHeader>
            <TableRow>
              <TableHead>Badge</TableHead>
              <TableHead>Rank</TableHead>
              <TableHead className="settings-num">Reputation</TableHead>
              <TableHead>Status</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {RANK_LADDER.map((rank) => {
              const current = rank.name === reputationRank.name;
              const reached = user.reputation >= rank.minReputation;
              return (
                <TableRow
                  key={rank.name}
                  aria-current={current ? 'true' : undefined}
                  className={current ? 'settings-ladder__current' : undefined}
                >
                  <TableCell>
                    <RankBadge rank={rank} />
                  </TableCell>
                  <TableCell className={`rank-${rank.style}`}>{rank.name}</TableCell>
                  <TableCell className="settings-num">{threshold(rank.minReputation)}</TableCell>
                  <TableCell>
                    {current ? (
                      <span className="tp-glow">&lt; YOU ARE HERE</span>
                    ) : reached ? (
                      <span className="tp-muted">reached</span>
                    ) : (
                      <span className="tp-muted">{rank.minReputation - user.reputation} to go</span>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Card>
    </div>
  );
}

/** /ranks: the active VIP grade, the reputation rank and owned grades to choose from. */
export function RanksScreen() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <Spinner label="Loading ranks..." />;
  if (!user) {
    return (
      <Card titleLevel={1} title="RANKS" className="settings-page">
        <p className="tp-muted">{RANKS_SIGNED_OUT}</p>
      </Card>
    );
  }
  return <RanksView user={user} />;
}
