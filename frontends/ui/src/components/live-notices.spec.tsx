import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { countOf, JumpPill, NewItemsBar, PresenceCount } from './live-notices.js';

describe('live notices', () => {
  it('counts in words', () => {
    expect(countOf(1, 'new paste')).toBe('1 new paste');
    expect(countOf(3, 'new paste')).toBe('3 new pastes');
    expect(countOf(2, 'new reply', 'new replies')).toBe('2 new replies');
  });

  it('PresenceCount shows nothing until the count is known, then the count as a polite status', () => {
    const { rerender } = render(<PresenceCount count={undefined} label="reading" />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    rerender(<PresenceCount count={2} label="reading" title="Members reading this paste now" />);
    const status = screen.getByRole('status', { name: 'Members reading this paste now: 2' });
    expect(status).toHaveTextContent('2 reading');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveClass('tp-badge', 'tp-presence');
  });

  it('PresenceCount with reserve keeps its room, unseen and silent, until the count is known', () => {
    const { container } = render(<PresenceCount count={undefined} label="reading" reserve />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    const room = container.querySelector('.tp-presence')!;
    expect(room).toHaveClass('tp-reserved');
    expect(room).toHaveAttribute('aria-hidden', 'true');
  });

  it('NewItemsBar says how many and shows them on SHOW; nothing at zero', async () => {
    const onShow = jest.fn();
    const { rerender } = render(<NewItemsBar count={0} noun="paste" onShow={onShow} />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    rerender(<NewItemsBar count={2} noun="paste" onShow={onShow} />);
    expect(screen.getByRole('status')).toHaveTextContent('▲ 2 new pastes—SHOW');
    await userEvent.click(screen.getByRole('button', { name: 'SHOW' }));
    expect(onShow).toHaveBeenCalledTimes(1);
  });

  it('JumpPill is a button naming the news; nothing at zero', async () => {
    const onJump = jest.fn();
    const { rerender } = render(<JumpPill count={0} noun="new reply" plural="new replies" onJump={onJump} />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    rerender(<JumpPill count={1} noun="new reply" plural="new replies" onJump={onJump} />);
    await userEvent.click(screen.getByRole('button', { name: '1 new reply' }));
    expect(onJump).toHaveBeenCalledTimes(1);
  });
});
