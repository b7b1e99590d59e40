import { PAGES, SIDEBAR, type CurrentUser } from '@termpaste/contracts';
import { emailPrefix, Tooltip, useReviewCount } from '@termpaste/ui';
import {
  Award,
  Bookmark,
  Eye,
  Flame,
  Gem,
  Hash,
  Home,
  LifeBuoy,
  LogOut,
  PlusSquare,
  Settings,
  Shield,
  ShieldAlert,
  Terminal,
  User,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { lazy, Suspense, useState, type CSSProperties } from 'react';
import { NavLink } from 'react-router-dom';

interface Item {
  label: string;
  to: string;
  icon: LucideIcon;
  /** A number beside the label (the review queue's open items). */
  count?: number;
}

const MAIN_ITEMS: Item[] = [
  { label: 'Home', to: PAGES.home, icon: Home },
  { label: 'Add Paste', to: PAGES.newThread, icon: PlusSquare },
  { label: 'Users', to: PAGES.users, icon: Users },
  { label: 'Upgrades', to: PAGES.upgrades, icon: Gem },
  { label: 'Hardest Posts', to: PAGES.hardest, icon: Flame },
  { label: 'Tags', to: PAGES.tags, icon: Hash },
  { label: 'Support', to: PAGES.support, icon: LifeBuoy },
];

export function logout() {
  window.location.href = '/api/logout';
}

// The active item is styled by the aria-current="page" that NavLink sets: a className function would
// not survive the Tooltip trigger's prop merging.
function SidebarLink({
  item,
  collapsed,
  onNavigate,
}: {
  item: Item;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  // The count in the name as shown, not in brackets (a bracketed part does not count as the name's text).
  const named = item.count ? `${item.label} ${item.count}` : item.label;
  const link = (
    <NavLink
      to={item.to}
      end={item.to === '/' || item.to === PAGES.admin}
      onClick={onNavigate}
      className="shell-nav__link"
      aria-label={collapsed || item.count ? named : undefined}
    >
      <item.icon aria-hidden="true" size={18} />
      <span className="shell-nav__label">{item.label}</span>
      {item.count ? (
        <span className="shell-nav__count" aria-hidden="true">
          {item.count}
        </span>
      ) : null}
    </NavLink>
  );
  return (
    <li>
      {collapsed ? (
        <Tooltip content={named} side="right">
          {link}
        </Tooltip>
      ) : (
        link
      )}
    </li>
  );
}

function SidebarContent({
  user,
  collapsed,
  onNavigate,
}: {
  user: CurrentUser | null;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const bottom: Item[] = [
    { label: 'Profile', to: user ? PAGES.profile(user.id) : PAGES.profileSelf, icon: User },
    { label: 'Bookmarks', to: PAGES.bookmarks, icon: Bookmark },
    { label: 'Watching', to: PAGES.settingsWatching, icon: Eye },
    { label: 'Ranks', to: PAGES.ranks, icon: Award },
    { label: 'Settings', to: PAGES.settings, icon: Settings },
  ];
  // Staff: the review queue, with its open items counted live.
  const reviewCount = useReviewCount(Boolean(user?.isAdmin));
  if (user?.isAdmin) {
    bottom.push({ label: 'Admin Panel', to: PAGES.admin, icon: Shield });
    bottom.push({ label: 'Review', to: PAGES.adminReview, icon: ShieldAlert, count: reviewCount });
  }

  return (
    <>
      <div className="shell-sidebar__header">
        <Terminal aria-hidden="true" size={20} className="shell-accent" />
        <div className="shell-sidebar__brand">
          <span className="shell-sidebar__name">TERMPASTE</span>
          <span className="shell-sidebar__status">
            STATUS:{' '}
            <span className={user ? 'shell-status--online' : 'shell-status--offline'}>
              {user ? 'ONLINE' : 'OFFLINE'}
            </span>
          </span>
        </div>
      </div>
      <nav className="shell-nav" aria-label="Main">
        <ul className="shell-nav__group">
          {MAIN_ITEMS.map((item) => (
            <SidebarLink key={item.to} item={item} collapsed={collapsed} onNavigate={onNavigate} />
          ))}
        </ul>
        <ul className="shell-nav__group shell-nav__group--bottom" aria-label="Account">
          {bottom.map((item) => (
            <SidebarLink key={item.label} item={item} collapsed={collapsed} onNavigate={onNavigate} />
          ))}
          <li>
            <button
              type="button"
              className="shell-nav__link"
              onClick={logout}
              aria-label={collapsed ? 'Logout' : undefined}
            >
              <LogOut aria-hidden="true" size={18} />
              <span className="shell-nav__label">Logout</span>
            </button>
          </li>
        </ul>
      </nav>
      <div className="shell-sidebar__footer" title={user?.email}>
        <span aria-hidden="true">@</span>
        <span className="shell-nav__label">{user ? emailPrefix(user.email) : 'Guest'}</span>
      </div>
    </>
  );
}

const SidebarSheet = lazy(() => import('./sidebar-sheet'));

/** On a phone the sidebar is a sheet over the page; its dialog's code is fetched when first opened. */
function MobileSidebar({
  user,
  openMobile,
  setOpenMobile,
}: {
  user: CurrentUser | null;
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
}) {
  const [needed, setNeeded] = useState(openMobile);
  if (openMobile && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <SidebarSheet open={openMobile} onOpenChange={setOpenMobile}>
        <SidebarContent user={user} collapsed={false} onNavigate={() => setOpenMobile(false)} />
      </SidebarSheet>
    </Suspense>
  );
}

export function Sidebar({
  user,
  isMobile,
  open,
  openMobile,
  setOpenMobile,
}: {
  user: CurrentUser | null;
  isMobile: boolean;
  open: boolean;
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
}) {
  if (isMobile) {
    return <MobileSidebar user={user} openMobile={openMobile} setOpenMobile={setOpenMobile} />;
  }
  const style = { '--shell-sidebar-width': open ? SIDEBAR.width : SIDEBAR.widthIcon } as CSSProperties;
  return (
    <aside
      className={`shell-sidebar${open ? '' : ' shell-sidebar--collapsed'}`}
      data-state={open ? 'expanded' : 'collapsed'}
      style={style}
      aria-label="Sidebar"
    >
      <SidebarContent user={user} collapsed={!open} />
    </aside>
  );
}
