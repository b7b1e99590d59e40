import { afterEach, expect, jest } from '@jest/globals';
import type { CurrentUser } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import type { QueryClient } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { userEvent, type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { createQueryClient } from '../api/client.js';
import { currentUserQuery } from '../api/current-user.js';
import { resetToastsForTests } from '../components/toast-store.js';
import { UiProvider } from '../components/ui-provider.js';

// The importing spec file starts each test with no toast, like @testing-library/react's own cleanup.
afterEach(() => {
  act(() => resetToastsForTests());
});

// ---- toasts

/** Waits for the toast on screen (one at a time) to read this title, and this description if given. */
export async function expectToast(title: string, description?: string): Promise<void> {
  await waitFor(() => {
    const shown = document.querySelector('.tp-toast');
    expect(shown?.querySelector('.tp-toast__title')?.textContent).toBe(title);
    if (description !== undefined) {
      expect(shown?.querySelector('.tp-toast__description')?.textContent).toBe(description);
    }
  });
}

/**
 * The unauthorized rule as a test sees it: the toast, then an attempt to go to /api/login after 0.5 s (jsdom
 * reports it).
 */
export async function expectLoginRedirect(): Promise<void> {
  const jsdomError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await expectToast('Unauthorized', 'You are logged out. Logging in again...');
    await waitFor(
      () => expect(jsdomError.mock.calls.map((call) => String(call[0])).join('\n')).toContain('navigation'),
      { timeout: 2000 },
    );
  } finally {
    jsdomError.mockRestore();
  }
}

// ---- rendering

/** Where the router is (path and query), as the status 'location'. */
export function Location() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

export interface RenderScreenOptions {
  /** The address the router starts at; '/' by default. */
  path?: string;
  /** The route pattern(s) that show the element: the path without its query by default. */
  route?: string | string[];
  /** The query client, seeded by the test; a new one by default. */
  client?: QueryClient;
  /** The signed-in member, null when signed out; sampleCurrentUser() (neo, id 7) by default. */
  user?: CurrentUser | null;
}

/**
 * Renders a screen as the shell does (UiProvider, router) with the current user in the cache. Any address
 * the routes do not match shows <Location />, so a test can read where the screen navigated to.
 * Returns the query client and a user-event instance.
 */
export function renderScreen(
  element: ReactElement,
  {
    path = '/',
    route = path.replace(/\?.*$/, ''),
    client = createQueryClient(),
    user = sampleCurrentUser(),
  }: RenderScreenOptions = {},
): { client: QueryClient; user: UserEvent } {
  client.setQueryData(currentUserQuery.queryKey, user);
  render(
    <UiProvider queryClient={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          {[route].flat().map((pattern) => (
            <Route key={pattern} path={pattern} element={element} />
          ))}
          <Route path="*" element={<Location />} />
        </Routes>
      </MemoryRouter>
    </UiProvider>,
  );
  return { client, user: userEvent.setup() };
}
