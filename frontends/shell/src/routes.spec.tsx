import { API, TEXTS, type CurrentUser } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import { createQueryClient, UiProvider } from '@termpaste/ui';
import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { pending, stubFetch } from '@termpaste/ui/testing';
import { AppRoutes } from './routes';

const member = sampleCurrentUser({ threadCount: 0, replyCount: 0 });

/** The routes at `path`; `user` undefined: the current user is still loading (its request never answers). */
function renderAt(path: string, user: CurrentUser | null | undefined, unread = 0) {
  const queryClient = createQueryClient();
  if (user === undefined) stubFetch(pending);
  else queryClient.setQueryData([API.currentUser], user);
  queryClient.setQueryData([API.notificationsUnreadCount], unread);
  // The site is read at start, beside the current user (app.tsx): the sign-in pages wait for it alone.
  queryClient.setQueryData([API.site], {
    productName: 'Termpaste',
    requireVerifiedEmail: true,
    localLogin: true,
    signInProviders: [],
  });
  return render(
    <UiProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </UiProvider>,
  );
}

// The visitors' pages are fetched on demand: once for the file, so a findBy does not wait for jest.
beforeAll(() => import('./pages/public-pages'));

describe('routing by auth state', () => {
  it.each(['/login', '/register', '/forgot-password', '/reset-password'])(
    'a visitor can open %s',
    async (path) => {
      renderAt(path, null);
      expect(
        await screen.findByRole('button', { name: /login|create account|send reset link|reset password/i }),
      ).toBeEnabled();
      expect(screen.queryByText(TEXTS.notFound)).not.toBeInTheDocument();
    },
  );

  it('a visitor gets the landing page at /', async () => {
    renderAt('/', null);
    expect(await screen.findByRole('link', { name: /access terminal/i })).toHaveAttribute('href', '/login');
  });

  it.each(['/thread/1', '/settings', '/admin', '/anything'])('a visitor gets the 404 page at %s', (path) => {
    renderAt(path, null);
    expect(screen.getByText(TEXTS.notFound)).toBeInTheDocument();
  });

  describe('while the current user is loading', () => {
    const renderLoading = (path: string) => renderAt(path, undefined);

    it.each(['/', '/thread/1', '/settings'])(
      '%s waits: neither the landing nor the 404 page flashes',
      (path) => {
        renderLoading(path);
        expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
        expect(screen.queryByText(TEXTS.notFound)).not.toBeInTheDocument();
        expect(screen.queryByRole('link', { name: /access terminal/i })).not.toBeInTheDocument();
      },
    );

    it('the sign-in page shows without waiting for it', async () => {
      renderLoading('/login');
      expect(await screen.findByRole('button', { name: /login/i })).toBeInTheDocument();
      expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    });
  });

  it('the visitor top bar has a home link named by its word and an access button to /api/login', async () => {
    renderAt('/anything', null);
    // Its name holds the text it shows (WCAG 2.5.3: a voice-control user says what they see).
    expect(screen.getByRole('link', { name: 'termpaste home' })).toHaveTextContent('termpaste');
    expect(screen.getByRole('link', { name: 'termpaste home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'ACCESS' })).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it('a member gets a 404 inside the layout for an unknown path, and for /login', () => {
    renderAt('/login', member);
    expect(screen.getByText(TEXTS.notFound)).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toBeInTheDocument();
  });

  it('the sidebar shows every item, the footer the e-mail prefix, and STATUS ONLINE', () => {
    renderAt('/nowhere', member);
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    for (const label of [
      'Home',
      'Add Paste',
      'Users',
      'Upgrades',
      'Hardest Posts',
      'Tags',
      'Support',
      'Ranks',
      'Settings',
    ]) {
      expect(sidebar.getByRole('link', { name: label })).toBeInTheDocument();
    }
    expect(sidebar.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile/7');
    expect(sidebar.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(sidebar.queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
    expect(sidebar.getByText('neo')).toBeInTheDocument();
    expect(sidebar.getByText('ONLINE')).toBeInTheDocument();
  });

  it('only admins get the Admin Panel item', () => {
    renderAt('/nowhere', { ...member, isAdmin: true });
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    expect(sidebar.getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin');
  });

  it("only admins get Review, counting the queue's open items", async () => {
    const calls = stubFetch((call) =>
      call.url === API.adminReviewCount ? { body: 3 } : { status: 404, body: 'not stubbed' },
    );
    renderAt('/nowhere', { ...member, isAdmin: true });
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    expect(await sidebar.findByRole('link', { name: 'Review 3' })).toHaveAttribute('href', '/admin/review');
    expect(calls.map((call) => call.url)).toContain(API.adminReviewCount);
  });

  it('asks a member for no review count', () => {
    const calls = stubFetch(() => ({ status: 404, body: 'not stubbed' }));
    renderAt('/nowhere', member);
    const sidebar = within(screen.getByRole('complementary', { name: 'Sidebar' }));
    expect(sidebar.queryByRole('link', { name: /Review/ })).not.toBeInTheDocument();
    expect(calls.map((call) => call.url)).not.toContain(API.adminReviewCount);
  });

  it('the unread badge shows only above 0', () => {
    renderAt('/nowhere', member, 3);
    expect(screen.getByLabelText('Notifications, 3 unread')).toHaveTextContent('3');
  });

  it('hides the unread badge at 0', () => {
    renderAt('/nowhere', member, 0);
    expect(screen.queryByLabelText(/unread/)).not.toBeInTheDocument();
  });

  it('Ctrl+B collapses the sidebar and stores the state in a cookie', () => {
    renderAt('/nowhere', member);
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(sidebar).toHaveAttribute('data-state', 'expanded');
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', ctrlKey: true }));
    });
    expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    expect(document.cookie).toContain('sidebar_state=false');
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', metaKey: true }));
    });
    expect(sidebar).toHaveAttribute('data-state', 'expanded');
  });

  // The skip link (app.tsx) lands on #content: every page has it, on its one <main>.
  it.each([
    ['a visitor', '/login', null],
    ['a visitor', '/', null],
    ['a visitor', '/nowhere', null],
    ['a member', '/nowhere', member],
  ])('%s at %s gets exactly one main, #content', async (_, path, user) => {
    renderAt(path, user);
    if (path === '/') await screen.findByRole('link', { name: /access terminal/i });
    if (path === '/login') await screen.findByRole('button', { name: /login/i });
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getByRole('main')).toHaveAttribute('id', 'content');
  });
});
