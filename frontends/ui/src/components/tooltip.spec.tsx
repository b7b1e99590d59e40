import { act, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { TOOLTIPS } from '@termpaste/contracts';
import { Tooltip, TooltipProvider } from './tooltip.js';

describe('Tooltip with TooltipProvider defaults (700 ms delay, 300 ms skip delay)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function setup() {
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    render(
      <TooltipProvider>
        <Tooltip content="Search pastes">
          <button type="button">search</button>
        </Tooltip>
        <Tooltip content="Open inbox" side="bottom">
          <button type="button">inbox</button>
        </Tooltip>
      </TooltipProvider>,
    );
    const search = screen.getByRole('button', { name: 'search' });
    const inbox = screen.getByRole('button', { name: 'inbox' });
    /**
     * Moves the pointer onto an element at a point. jsdom has no layout, so points far from the origin
     * leave Radix's hover "grace area" between a trigger and its (zero-sized) tooltip.
     */
    const moveTo = (target: Element, at: number) =>
      user.pointer({ target, coords: { clientX: at, clientY: at } });
    return { search, inbox, moveTo };
  }

  const advance = (ms: number) => act(() => jest.advanceTimersByTime(ms));
  const tooltipText = () => screen.queryByRole('tooltip')?.textContent ?? null;

  it('uses the delays of the contracts', () => {
    expect(TOOLTIPS).toEqual({ delayMs: 700, skipDelayMs: 300 });
  });

  it('opens only after 700 ms of hovering', async () => {
    const { search, moveTo } = setup();
    await moveTo(search, 10);

    advance(TOOLTIPS.delayMs - 50);
    expect(tooltipText()).toBeNull();

    advance(50);
    expect(tooltipText()).toBe('Search pastes');
  });

  it('opens the next tooltip at once within 300 ms, and with the delay again after that', async () => {
    const { search, inbox, moveTo } = setup();
    await moveTo(search, 10);
    advance(TOOLTIPS.delayMs);
    expect(tooltipText()).toBe('Search pastes');

    // Leave for the other trigger: the first closes, the second opens without a delay.
    await moveTo(inbox, 500);
    await moveTo(inbox, 800);
    await moveTo(inbox, 810);
    expect(tooltipText()).toBe('Open inbox');

    // Away from both, back within the skip delay: still no delay.
    await moveTo(document.body, 2000);
    await moveTo(document.body, 3000);
    expect(tooltipText()).toBeNull();
    advance(TOOLTIPS.skipDelayMs - 50);
    await moveTo(search, 4000);
    await moveTo(search, 4010);
    expect(tooltipText()).toBe('Search pastes');

    // Away for longer than the skip delay: the delay applies again.
    await moveTo(document.body, 5000);
    await moveTo(document.body, 6000);
    expect(tooltipText()).toBeNull();
    advance(TOOLTIPS.skipDelayMs + 10);
    await moveTo(inbox, 7000);
    await moveTo(inbox, 7010);
    advance(TOOLTIPS.delayMs - 50);
    expect(tooltipText()).toBeNull();
    advance(50);
    expect(tooltipText()).toBe('Open inbox');
  });
});
