import { SIGNED_IN_ROUTES } from '@termpaste/contracts';
import { screens } from './screens';

describe('the screens module the shell loads', () => {
  it('exposes every admin screen, and nothing else', () => {
    const expected = SIGNED_IN_ROUTES.filter((route) => route.remote === 'admin').map(
      (route) => route.screen,
    );
    expect(Object.keys(screens).sort()).toEqual([...new Set(expected)].sort());
  });
});
