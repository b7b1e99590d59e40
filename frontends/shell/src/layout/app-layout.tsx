import { REMOTE_WIDGETS } from '@termpaste/contracts';
import { CONTENT_ID, useCurrentUser } from '@termpaste/ui';
import { Outlet, useLocation } from 'react-router-dom';
import { RemoteWidget } from '../remotes/remote-widget';
import { useUserLiveUpdates } from './live-updates';
import { Sidebar } from './sidebar';
import { useSidebarState } from './sidebar-state';
import { TopBar } from './top-bar';
import { SilencedBanner } from './silenced-banner';
import { VerifyEmailBanner } from './verify-banner';

/** The widgets of REMOTE_WIDGETS that belong on this path. */
function Widgets() {
  const { pathname } = useLocation();
  return REMOTE_WIDGETS.filter((w) => (w.paths as readonly string[]).includes(pathname)).map((w) => (
    <RemoteWidget key={`${w.remote}/${w.widget}`} remote={w.remote} widget={w.widget} facade={w.facade} />
  ));
}

/** The signed-in layout: sidebar, top bar, the current route's screen and its widgets. */
export function AppLayout() {
  const { user } = useCurrentUser();
  const sidebar = useSidebarState();
  useUserLiveUpdates(user !== null);

  return (
    <div className="shell-layout">
      <Sidebar
        user={user}
        isMobile={sidebar.isMobile}
        open={sidebar.open}
        openMobile={sidebar.openMobile}
        setOpenMobile={sidebar.setOpenMobile}
      />
      <div className="shell-main">
        <TopBar user={user} onToggleSidebar={sidebar.toggle} />
        <VerifyEmailBanner user={user} />
        <SilencedBanner user={user} />
        <main className="shell-content" id={CONTENT_ID}>
          <Outlet />
        </main>
        <Widgets />
      </div>
    </div>
  );
}
