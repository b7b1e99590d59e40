import { API, PAGES } from '@termpaste/contracts';
import { PASTE_PAGE, ROUTES } from './routes.js';

describe('the paths the CLI calls', () => {
  it('are the contracts’ own', () => {
    expect(ROUTES.currentUser).toBe(API.currentUser);
    expect(ROUTES.pastes).toBe(API.pastes);
    expect(ROUTES.user(7)).toBe(API.user(7));
    expect(ROUTES.thread(7)).toBe(API.thread(7));
    expect(ROUTES.threadRaw(7)).toBe(API.threadRaw(7));
    expect(ROUTES.threadFork('AbCdEfGhIjKlMnOpQrStUv')).toBe(API.threadFork('AbCdEfGhIjKlMnOpQrStUv'));
    expect(ROUTES.threadRevision(7, 2)).toBe(API.threadRevision(7, 2));
    expect(PASTE_PAGE(7)).toBe(PAGES.thread(7));
  });
});
