import { screen, waitFor, within } from '@testing-library/react';
import { chatApi, renderScreen } from '../testing';
import { ChatPopover } from './chat-popover';

// A file of its own: here the panel's code is not loaded yet (chat-popover.spec.tsx loads it up front), as
// when a click on the shell's facade has just mounted the popover.
describe('the global chat popover mounted open (the shell facade was clicked)', () => {
  it("moves the focus to its own button while the panel's code loads, then to the panel's input", async () => {
    chatApi('/api/chat')({ history: [] });
    // The facade's button had the focus and is gone: the focus is on the page when the popover mounts.
    expect(document.activeElement).toBe(document.body);
    const { user } = renderScreen(<ChatPopover defaultOpen />, { path: '/' });
    const toggle = screen.getByRole('button', { name: 'Open global chat' });
    const panel = screen.getByRole('dialog', { name: 'GLOBAL CHAT' });
    expect(within(panel).getByRole('status')).toHaveTextContent('Loading...');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveFocus();

    await waitFor(() => expect(within(panel).getByRole('textbox', { name: 'Message' })).toHaveFocus(), {
      timeout: 5000,
    });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
  });
});
