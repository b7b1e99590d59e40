import { isSidebarShortcut, readSidebarCookie, sidebarCookie } from './sidebar-state';

describe('sidebar cookie', () => {
  it('keeps the state for 7 days', () => {
    expect(sidebarCookie(false)).toBe('sidebar_state=false; path=/; max-age=604800; SameSite=Lax');
  });

  it('reads the state back among other cookies', () => {
    expect(readSidebarCookie('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(readSidebarCookie('sidebar_state=true')).toBe(true);
    expect(readSidebarCookie('other=1')).toBeNull();
  });
});

describe('sidebar shortcut', () => {
  it('is Ctrl+B or Cmd+B', () => {
    expect(isSidebarShortcut({ key: 'b', ctrlKey: true, metaKey: false })).toBe(true);
    expect(isSidebarShortcut({ key: 'B', ctrlKey: false, metaKey: true })).toBe(true);
    expect(isSidebarShortcut({ key: 'b', ctrlKey: false, metaKey: false })).toBe(false);
    expect(isSidebarShortcut({ key: 'n', ctrlKey: true, metaKey: false })).toBe(false);
  });
});
