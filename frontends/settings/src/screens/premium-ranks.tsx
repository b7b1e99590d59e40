import { effectiveRank, PAGES, PREMIUM_RANKS, type Rank } from '@termpaste/contracts';
import { Badge, Card, RankBadge, Spinner, useCurrentUser } from '@termpaste/ui';
import { Link } from 'react-router-dom';

/** What each grade says about itself in the catalogue. */
const TAGLINES: Record<string, string> = {
  'Elite Hacker': 'Root on every box. A phosphor-green signature that glows.',
  'Cyber Ghost': 'In and out without a trace. An ice-blue shimmer.',
  'Script Kiddie': 'Copy, paste, pwn. A loud neon gradient, and proud of it.',
  'Digital Phantom': 'Haunts the wires between packets. A violet-cyan drift.',
};

/** The support form, with its subject filled in for a request for `grade`. */
export const rankRequestLink = (grade: string) =>
  `${PAGES.support}?subject=${encodeURIComponent(`VIP grade request: ${grade}`)}`;

function RankCard({
  rank,
  username,
  owned,
  active,
}: {
  rank: Rank;
  username: string;
  owned: boolean;
  active: boolean;
}) {
  return (
    <li className="settings-upgrade" data-owned={owned || undefined} aria-label={rank.name}>
      <div className="settings-upgrade__head">
        <RankBadge rank={rank} />
        {owned && <Badge variant="accent">OWNED</Badge>}
        {active && <Badge variant="warning">ACTIVE</Badge>}
      </div>
      <h3 className="settings-upgrade__name">{rank.name}</h3>
      <p className="tp-muted settings-upgrade__tagline">{TAGLINES[rank.name]}</p>
      <div className="settings-upgrade__sample" aria-label={`${rank.name} name style`}>
        <span className="tp-muted" aria-hidden="true">
          &gt;{' '}
        </span>
        <span className={`tp-username rank-${rank.style}`} data-testid="name-preview">
          {username}
        </span>
      </div>
      <div className="settings-upgrade__action">
        {owned ? (
          <Link to={PAGES.ranks}>{active ? 'Manage on the Ranks page' : 'Activate on the Ranks page'}</Link>
        ) : (
          <Link to={rankRequestLink(rank.name)}>Ask the staff for it</Link>
        )}
      </div>
    </li>
  );
}

/**
 * /upgrades: the four VIP grades, which the member owns, and how to get one (an admin grants them; no
 * payment).
 */
export function PremiumRanksScreen() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <Spinner label="Loading upgrades..." />;
  const owned = new Set(user?.ownedPremiumRanks ?? []);
  const shown = user ? effectiveRank(user) : null;
  const username = user?.username ?? 'username';

  return (
    <div className="settings-stack">
      <Card titleLevel={1} title="UPGRADES">
        <p>
          VIP grades change how your name looks across the forum: in pastes, replies, profiles and the global
          chat. You can own several and choose which one is active.
        </p>
        <ul className="settings-upgrades" aria-label="VIP grades">
          {PREMIUM_RANKS.map((rank) => (
            <RankCard
              key={rank.name}
              rank={rank}
              username={username}
              owned={owned.has(rank.name)}
              active={shown?.name === rank.name}
            />
          ))}
        </ul>
      </Card>
      <Card title="HOW TO GET ONE">
        <ol className="settings-steps">
          <li>
            <span className="tp-glow">No payment flow.</span> VIP grades are granted by an admin, not bought
            here.
          </li>
          <li>
            Ask the staff through <Link to={PAGES.support}>Support</Link>: say which grade you would like and
            why.
          </li>
          <li>
            Once granted, the grade is tagged OWNED here; switch to it on the{' '}
            <Link to={PAGES.ranks}>Ranks</Link> page.
          </li>
        </ol>
        <Link to={PAGES.support} className="tp-button tp-button--primary tp-button--md">
          CONTACT SUPPORT
        </Link>
      </Card>
    </div>
  );
}
