import { useCurrentUser } from '@termpaste/ui';
import { Outlet } from 'react-router-dom';
import { Sidebar } from './sidebar';
import { useSidebarState } from './sidebar-state';
import { TopBar } from './top-bar';

/** The signed-in layout: sidebar, top bar and the current route's screen. */
export function AppLayout() {
  const { user } = useCurrentUser();
  const sidebar = useSidebarState();

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
        <main className="shell-content" id="content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
