import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { TOOLTIPS } from '@termpaste/contracts';
import { preloadTooltips, resetTooltipsForTests, Tooltip, TooltipProvider } from './tooltip.js';

// The tests run in order on one page: the tooltips' code is fetched by the first.
describe('Tooltip before its code is fetched', () => {
  beforeAll(() => act(() => resetTooltipsForTests()));

  function renderTooltips() {
    render(
      <TooltipProvider>
        <Tooltip content="Search pastes">
          <button type="button">search</button>
        </Tooltip>
        <a href="/inbox">inbox</a>
      </TooltipProvider>,
    );
    return screen.getByRole('button', { name: 'search' });
  }

  it('shows the trigger alone, then fetches the code when the focus reaches it and shows the tooltip', async () => {
    const user = userEvent.setup();
    const trigger = renderTooltips();
    expect(trigger).not.toHaveAttribute('data-state');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();

    await user.tab();
    // Drawn anew inside Radix's trigger, with the focus given back: focus shows a tooltip at once.
    await waitFor(() => expect(screen.getByRole('button', { name: 'search' })).toHaveAttribute('data-state'));
    expect(screen.getByRole('button', { name: 'search' })).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Search pastes');
  });

  it('once fetched, opens a hovered trigger after the delay', async () => {
    jest.useFakeTimers();
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      const trigger = renderTooltips();
      expect(trigger).toHaveAttribute('data-state', 'closed');
      await user.pointer({ target: trigger, coords: { clientX: 10, clientY: 10 } });
      act(() => jest.advanceTimersByTime(TOOLTIPS.delayMs - 50));
      expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
      act(() => jest.advanceTimersByTime(50));
      expect(screen.getByRole('tooltip')).toHaveTextContent('Search pastes');
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not lose a tap whose press began before the code arrived', async () => {
    act(() => resetTooltipsForTests());
    const onClick = jest.fn();
    render(
      <TooltipProvider>
        <Tooltip content="Notifications">
          <button type="button" onClick={onClick}>
            bell
          </button>
        </Tooltip>
      </TooltipProvider>,
    );
    const button = screen.getByRole('button', { name: 'bell' });
    // A finger: on the button and pressing at once; the code arrives before it lifts.
    fireEvent.pointerEnter(button);
    fireEvent.pointerDown(button);
    await act(() => preloadTooltips());
    expect(button).toBeInTheDocument();
    fireEvent.pointerUp(button);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    // Then Radix's trigger takes its place.
    expect(screen.getByRole('button', { name: 'bell' })).toHaveAttribute('data-state', 'closed');
  });

  it('needs a TooltipProvider', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      render(
        <Tooltip content="x">
          <button type="button">x</button>
        </Tooltip>,
      ),
    ).toThrow(/TooltipProvider/);
  });
});
