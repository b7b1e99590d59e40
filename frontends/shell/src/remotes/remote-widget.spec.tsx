import { REMOTE_WIDGETS, type RemoteWidgetProps } from '@termpaste/contracts';
import { createQueryClient } from '@termpaste/ui';
import { deferred, renderScreen } from '@termpaste/ui/testing';
import { act, screen, waitFor } from '@testing-library/react';
import { useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import { remoteLoader } from './registry';
import { RemoteOfflineError } from './remote-loader';
import { RemoteWidget } from './remote-widget';

const chat = REMOTE_WIDGETS.find((w) => w.widget === 'ChatPopover')!;
const key = ['remote-screens', 'messaging'];

/** The widget as the messaging remote draws it, in short: its own round button and, open, its panel. */
function ChatPopover({ defaultOpen = false }: RemoteWidgetProps) {
  const [open, setOpen] = useState(defaultOpen);
  const toggle = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (defaultOpen) toggle.current?.focus();
  }, [defaultOpen]);
  return (
    <div data-testid="widget">
      {open && <div role="dialog" aria-label="GLOBAL CHAT" />}
      <button
        ref={toggle}
        type="button"
        aria-label="Open global chat"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      />
    </div>
  );
}
type Screens = Record<string, ComponentType>;
const messaging: Screens = { ChatPopover };

/** remoteLoader.loadScreens, answered by `answer`: the one way the shell loads a remote. */
const loadScreens = (answer: () => Promise<Screens>) =>
  jest.spyOn(remoteLoader, 'loadScreens').mockImplementation(answer);
const offline = () => Promise.reject(new RemoteOfflineError('messaging', new Error('404: Not Found')));

const button = () => screen.getByRole('button', { name: 'Open global chat' });
const facade = () => screen.queryByRole('button', { name: 'Open global chat' })?.closest('.tp-dock');
/** Gives a fetch that was going to start a moment to do so. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

function renderWidget(options: Parameters<typeof renderScreen>[1] = {}) {
  return renderScreen(<RemoteWidget remote={chat.remote} widget={chat.widget} facade={chat.facade} />, {
    path: '/',
    ...options,
  });
}

afterEach(() => jest.restoreAllMocks());

describe('a remote widget, imported on interaction (REMOTE_WIDGETS facade)', () => {
  it("shows the facade, the widget's round button, and loads nothing of the remote", async () => {
    const load = loadScreens(() => Promise.resolve(messaging));
    const { client } = renderWidget();
    expect(button()).toHaveClass('tp-dock__button');
    expect(button()).toHaveAttribute('aria-expanded', 'false');
    expect(button()).not.toHaveAttribute('aria-busy');
    expect(button().querySelector('svg')).not.toBeNull();
    expect(facade()).toHaveClass('tp-dock');
    expect(screen.queryByTestId('widget')).not.toBeInTheDocument();
    await settle();
    expect(load).not.toHaveBeenCalled();
    expect(client.getQueryData(key)).toBeUndefined();
  });

  it('fetches the remote when pointed at, once, keeping the facade until a click opens the widget', async () => {
    const load = loadScreens(() => Promise.resolve(messaging));
    const { client, user } = renderWidget();
    await user.hover(button());
    expect(load).toHaveBeenCalledWith('messaging');
    await waitFor(() => expect(client.getQueryData(key)).toBe(messaging));
    await user.unhover(button());
    await user.hover(button());
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('widget')).not.toBeInTheDocument();

    // Fetched already: the click opens it at once.
    await user.click(button());
    expect(screen.getByRole('dialog', { name: 'GLOBAL CHAT' })).toBeInTheDocument();
    expect(screen.getByTestId('widget')).toContainElement(button());
    expect(button()).toHaveFocus();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('fetches the remote when focused (a keyboard user tabbing to it)', async () => {
    const load = loadScreens(() => Promise.resolve(messaging));
    const { client, user } = renderWidget();
    await user.tab();
    expect(button()).toHaveFocus();
    expect(load).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(client.getQueryData(key)).toBe(messaging));
    expect(screen.queryByTestId('widget')).not.toBeInTheDocument();
    expect(button()).toHaveFocus();
  });

  it('on a click, is busy while the remote loads, then mounts the widget open with the focus on its button', async () => {
    const answer = deferred<Screens>();
    const load = loadScreens(() => answer.promise);
    const { user } = renderWidget();
    await user.keyboard('{Tab}{Enter}');
    expect(load).toHaveBeenCalledTimes(1);
    expect(button()).toHaveAttribute('aria-busy', 'true');
    expect(button()).toHaveFocus();
    expect(screen.queryByTestId('widget')).not.toBeInTheDocument();

    answer.resolve(messaging);
    expect(await screen.findByRole('dialog', { name: 'GLOBAL CHAT' })).toBeInTheDocument();
    expect(button()).toHaveAttribute('aria-expanded', 'true');
    expect(button()).not.toHaveAttribute('aria-busy');
    expect(screen.getByTestId('widget')).toContainElement(button());
    expect(button()).toHaveFocus();
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });

  it('disappears after a click when the remote is offline, as the widget did', async () => {
    const load = loadScreens(offline);
    const { user } = renderWidget();
    await user.click(button());
    await waitFor(() => expect(screen.queryByRole('button')).not.toBeInTheDocument());
    // Tried when pointed at on the way to the click, and once more for the click itself; no more after.
    await settle();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('stays after a hover that found the remote offline, and a click tries it again', async () => {
    let attempts = 0;
    const load = loadScreens(() => {
      attempts += 1;
      return attempts === 1 ? offline() : Promise.resolve(messaging);
    });
    const { client, user } = renderWidget();
    await user.hover(button());
    await waitFor(() => expect(client.getQueryState(key)?.status).toBe('error'));
    expect(button()).toBeInTheDocument();

    await user.click(button());
    expect(await screen.findByRole('dialog', { name: 'GLOBAL CHAT' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shows a visitor nothing for a members-only widget, and loads nothing', async () => {
    const load = loadScreens(() => Promise.resolve(messaging));
    renderWidget({ user: null });
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    await settle();
    expect(load).not.toHaveBeenCalled();
  });

  it('mounts the widget itself, closed, when its remote is loaded already', async () => {
    const load = loadScreens(() => Promise.resolve(messaging));
    // Its screens were opened before (/messages), or a hover on an earlier visit of home fetched them.
    const client = createQueryClient();
    client.setQueryData(key, messaging);
    renderWidget({ client });
    expect(screen.getByTestId('widget')).toContainElement(button());
    expect(button()).toHaveAttribute('aria-expanded', 'false');
    expect(button()).not.toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await settle();
    expect(load).not.toHaveBeenCalled();
  });

  it('shows nothing once loaded when the remote lacks the widget', async () => {
    loadScreens(() => Promise.resolve({}));
    const { user } = renderWidget();
    await user.click(button());
    await waitFor(() => expect(screen.queryByRole('button')).not.toBeInTheDocument());
  });
});
