import { API, API_OPERATIONS } from '@termpaste/contracts';
import { DOCS_ASSETS, INIT_SCRIPT } from '../src/http/api-docs.js';
import { type ServedRoute, servedRoutes } from './support/served-routes.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Served under /api but no operation of the API: the docs page's own script, styles and icons (the page
 * and the document are operations).
 */
const isDocsPageFile = ({ method, path }: ServedRoute) =>
  method === 'get' && (path === INIT_SCRIPT || path.startsWith(`${DOCS_ASSETS}/`));

const key = ({ method, path }: ServedRoute) => `${method.toUpperCase()} ${path}`;

/** The API's routes, and the Atom feeds (documented too; the embed pages are HTML for iframes). */
describe('the routes the app serves and the OpenAPI route table', () => {
  let t: TestApp;
  let served: ServedRoute[];

  beforeAll(async () => {
    t = await createTestApp();
    served = servedRoutes(t.app).filter(
      (route) =>
        (route.path === '/api' || route.path.startsWith('/api/') || route.path.startsWith('/feeds/')) &&
        !isDocsPageFile(route),
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  it('reads the routes from the running app (controllers, the docs router and the queue dashboard)', () => {
    const keys = served.map(key);
    expect(keys).toContain(`GET ${API.thread('{id}')}`);
    expect(keys).toContain(`POST ${API.threads}`);
    expect(keys).toContain(`GET ${API.upload('{key}')}`);
    expect(keys).toContain(`GET ${API.openApi}`);
    expect(keys).toContain(`* ${API.adminQueues}`);
    // The docs page's files are served, and left out as files of the page.
    const all = servedRoutes(t.app);
    expect(all.some((route) => route.path === INIT_SCRIPT)).toBe(true);
    expect(all.filter(isDocsPageFile).length).toBeGreaterThan(1);
  });

  it('serves no route under /api that the document leaves out', () => {
    const undocumented = served.filter(
      (route) =>
        !API_OPERATIONS.some(
          (op) => op.path === route.path && (route.method === '*' || op.method === route.method),
        ),
    );
    expect(undocumented.map(key)).toEqual([]);
  });

  it('documents no operation that the app does not serve', () => {
    const unserved = API_OPERATIONS.filter(
      (op) =>
        !served.some(
          (route) => route.path === op.path && (route.method === '*' || route.method === op.method),
        ),
    );
    expect(unserved.map((op) => `${op.method.toUpperCase()} ${op.path} (${op.operationId})`)).toEqual([]);
  });
});
