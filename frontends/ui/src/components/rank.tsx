import { authorRank, type PublicAuthor, type Rank } from '@termpaste/contracts';
import { cx } from '../lib/cx.js';
import { Badge } from './badge.js';

type Ranked = Pick<PublicAuthor, 'reputation' | 'activePremiumRank'>;

/** A rank as a bracketed badge coloured by its `rank-<style>` class. */
export function RankBadge({ rank, className }: { rank: Rank; className?: string }) {
  return (
    <Badge variant="muted" className={cx(`rank-${rank.style}`, className)} title={rank.name}>
      {rank.badge}
    </Badge>
  );
}

/** A member's name; an active premium grade styles it (`rank-<lower-cased-grade>`). */
export function UserName({ user, className }: { user: Ranked & { username: string }; className?: string }) {
  const rank = authorRank(user);
  return (
    <span className={cx('tp-username', rank.isPremium && `rank-${rank.style}`, className)}>
      {user.username}
    </span>
  );
}
