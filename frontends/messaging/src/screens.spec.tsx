import { REMOTE_WIDGETS, SIGNED_IN_ROUTES } from '@termpaste/contracts';
import { screens } from './screens';

describe('the screens module the shell loads', () => {
  it('exposes every messaging screen and widget, and nothing else', () => {
    const expected = [
      ...SIGNED_IN_ROUTES.filter((route) => route.remote === 'messaging').map((route) => route.screen),
      ...REMOTE_WIDGETS.filter((widget) => widget.remote === 'messaging').map((widget) => widget.widget),
    ];
    expect(Object.keys(screens).sort()).toEqual([...new Set(expected)].sort());
    expect(Object.keys(screens)).toContain('ChatPopover');
  });
});
