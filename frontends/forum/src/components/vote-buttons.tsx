import { IconButton, cx } from '@termpaste/ui';
import { ChevronDown, ChevronUp } from 'lucide-react';

/** A score with '+' before a positive one. */
export function formatScore(score: number): string {
  return score > 0 ? `+${score}` : String(score);
}

/**
 * Up and down votes with the score between; disabled signed out; the same button again takes one's vote back.
 */
export function VoteButtons({
  score,
  myVote,
  disabled,
  pending,
  onVote,
  what,
}: {
  score: number;
  myVote: 1 | -1 | null;
  disabled: boolean;
  pending: boolean;
  onVote: (value: 1 | -1) => void;
  /** 'paste' or 'reply', for the buttons' names. */
  what: string;
}) {
  return (
    <div className="forum-votes" role="group" aria-label={`Vote on this ${what}`}>
      <IconButton
        label={myVote === 1 ? `Take back upvote` : `Upvote ${what}`}
        icon={<ChevronUp />}
        size="sm"
        disabled={disabled || pending}
        aria-pressed={myVote === 1}
        className={cx('forum-vote', myVote === 1 && 'forum-vote--up')}
        onClick={() => onVote(1)}
      />
      <span
        className={cx('forum-score', score > 0 && 'forum-score--up', score < 0 && 'forum-score--down')}
        aria-label={`Score ${formatScore(score)}`}
        data-testid="score"
      >
        {formatScore(score)}
      </span>
      <IconButton
        label={myVote === -1 ? `Take back downvote` : `Downvote ${what}`}
        icon={<ChevronDown />}
        size="sm"
        disabled={disabled || pending}
        aria-pressed={myVote === -1}
        className={cx('forum-vote', myVote === -1 && 'forum-vote--down')}
        onClick={() => onVote(-1)}
      />
    </div>
  );
}
