import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef, type CSSProperties } from 'react';
import { Dock, DockButton } from './dock.js';

describe('Dock and DockButton', () => {
  it('is a tp-dock holding a round tp-dock__button named by its label, its icon hidden from readers', () => {
    const { container } = render(
      <Dock className="msg-popover" style={{ '--x': '1' } as CSSProperties} data-testid="dock">
        <DockButton label="Open global chat" aria-expanded={false}>
          <svg aria-hidden="true" />
        </DockButton>
      </Dock>,
    );
    const dock = screen.getByTestId('dock');
    expect(dock).toHaveClass('tp-dock', 'msg-popover');
    expect(dock).toHaveStyle({ '--x': '1' });
    const button = screen.getByRole('button', { name: 'Open global chat' });
    expect(button).toHaveClass('tp-dock__button');
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).not.toHaveAttribute('aria-busy');
    expect(button.parentElement).toBe(dock);
    expect(button.querySelector('svg')).not.toBeNull();
    expect(container.textContent).toBe('');
  });

  it('passes clicks, focus and pointer events, and its ref, to the button', async () => {
    const onClick = jest.fn();
    const onFocus = jest.fn();
    const onPointerEnter = jest.fn();
    const ref = createRef<HTMLButtonElement>();
    render(
      <Dock>
        <DockButton
          ref={ref}
          label="Open"
          className="extra"
          onClick={onClick}
          onFocus={onFocus}
          onPointerEnter={onPointerEnter}
        >
          <svg aria-hidden="true" />
        </DockButton>
      </Dock>,
    );
    const button = screen.getByRole('button', { name: 'Open' });
    expect(ref.current).toBe(button);
    expect(button).toHaveClass('tp-dock__button', 'extra');
    await userEvent.hover(button);
    expect(onPointerEnter).toHaveBeenCalledTimes(1);
    await userEvent.click(button);
    expect(onFocus).toHaveBeenCalledTimes(1);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('is aria-busy while busy, and still a button with its name', () => {
    render(
      <DockButton label="Open global chat" busy>
        <svg aria-hidden="true" />
      </DockButton>,
    );
    expect(screen.getByRole('button', { name: 'Open global chat' })).toHaveAttribute('aria-busy', 'true');
  });
});
