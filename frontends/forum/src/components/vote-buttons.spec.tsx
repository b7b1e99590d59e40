import { TooltipProvider } from '@termpaste/ui';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { formatScore, VoteButtons } from './vote-buttons';

describe('formatScore', () => {
  it.each([
    [3, '+3'],
    [1, '+1'],
    [0, '0'],
    [-2, '-2'],
  ])('%i reads %s', (score, text) => {
    expect(formatScore(score)).toBe(text);
  });
});

function renderVotes(props: Partial<Parameters<typeof VoteButtons>[0]> = {}) {
  const onVote = jest.fn();
  render(
    <TooltipProvider>
      <VoteButtons
        score={3}
        myVote={null}
        disabled={false}
        pending={false}
        onVote={onVote}
        what="paste"
        {...props}
      />
    </TooltipProvider>,
  );
  return { onVote, group: screen.getByRole('group', { name: `Vote on this ${props.what ?? 'paste'}` }) };
}

describe('VoteButtons', () => {
  it('shows the score with its sign and votes up and down', () => {
    const { onVote, group } = renderVotes();
    expect(within(group).getByTestId('score')).toHaveTextContent('+3');
    expect(within(group).getByTestId('score')).toHaveClass('forum-score--up');
    fireEvent.click(within(group).getByRole('button', { name: 'Upvote paste' }));
    fireEvent.click(within(group).getByRole('button', { name: 'Downvote paste' }));
    expect(onVote.mock.calls).toEqual([[1], [-1]]);
  });

  it('shows zero and negative scores', () => {
    renderVotes({ score: 0 });
    expect(screen.getByTestId('score')).toHaveTextContent(/^0$/);
  });

  it('marks a negative score', () => {
    renderVotes({ score: -2, what: 'reply' });
    expect(screen.getByTestId('score')).toHaveTextContent('-2');
    expect(screen.getByTestId('score')).toHaveClass('forum-score--down');
    expect(screen.getByRole('button', { name: 'Upvote reply' })).toBeInTheDocument();
  });

  it('is disabled when signed out, and clicks do nothing', () => {
    const { onVote } = renderVotes({ disabled: true });
    const up = screen.getByRole('button', { name: 'Upvote paste' });
    const down = screen.getByRole('button', { name: 'Downvote paste' });
    expect(up).toBeDisabled();
    expect(down).toBeDisabled();
    fireEvent.click(up);
    expect(onVote).not.toHaveBeenCalled();
  });

  it('is disabled while a vote is pending', () => {
    renderVotes({ pending: true });
    expect(screen.getByRole('button', { name: 'Upvote paste' })).toBeDisabled();
  });

  it('highlights the member’s own vote and offers to take it back', () => {
    renderVotes({ myVote: 1 });
    const up = screen.getByRole('button', { name: 'Take back upvote' });
    expect(up).toHaveAttribute('aria-pressed', 'true');
    expect(up).toHaveClass('forum-vote--up');
    expect(screen.getByRole('button', { name: 'Downvote paste' })).toHaveAttribute('aria-pressed', 'false');
  });
});
