import { SIDEBAR } from '@termpaste/contracts';
import { useCallback, useEffect, useState } from 'react';

export function readSidebarCookie(cookie: string): boolean | null {
  const match = cookie.split(/;\s*/).find((part) => part.startsWith(`${SIDEBAR.cookieName}=`));
  if (!match) return null;
  return match.slice(SIDEBAR.cookieName.length + 1) !== 'false';
}

export function sidebarCookie(open: boolean): string {
  return `${SIDEBAR.cookieName}=${open}; path=/; max-age=${SIDEBAR.cookieMaxAgeSeconds}; SameSite=Lax`;
}

export function isSidebarShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey'>): boolean {
  return event.key.toLowerCase() === SIDEBAR.shortcutKey && (event.ctrlKey || event.metaKey);
}

const mobileQuery = `(max-width: ${SIDEBAR.mobileBreakpointPx - 1}px)`;

function useIsMobile(): boolean {
  const [isMobile, setIsMobile] = useState(() => window.matchMedia?.(mobileQuery).matches ?? false);
  useEffect(() => {
    const media = window.matchMedia?.(mobileQuery);
    if (!media) return;
    const update = () => setIsMobile(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return isMobile;
}

/**
 * Sidebar state: expanded or icons on desktop (a 7-day cookie), a sheet under 768 px; Ctrl/Cmd+B toggles it.
 */
export function useSidebarState() {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => readSidebarCookie(document.cookie) ?? true);
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    document.cookie = sidebarCookie(value);
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) setOpenMobile((v) => !v);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSidebarShortcut(event)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);

  return { isMobile, open, openMobile, setOpenMobile, toggle };
}
