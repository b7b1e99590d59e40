/**
 * @termpaste/ui/testing: what the specs of the shell and the remotes share. Only specs import it (never
 * a screen or an app entry), so no build bundles it; jest reads it from source, like '@termpaste/ui'.
 *
 * Importing it registers, for the importing spec file, an afterEach that clears the toasts and puts the
 * real fetch back. A spec file that calls installFakeWebSocket() gets a FakeWebSocket as `WebSocket` in
 * each of its tests.
 */
export { stubClipboard } from './clipboard.js';
export { minutesAgo, sampleAuthor } from './fixtures.js';
export { fakeReducedMotion } from './media.js';
export {
  deferred,
  errorBody,
  pending,
  reads,
  stubApi,
  stubFetch,
  urls,
  writes,
  type FetchAnswer,
  type FetchCall,
  type FetchHandler,
} from './fetch.js';
export {
  expectLoginRedirect,
  expectToast,
  Location,
  renderScreen,
  type RenderScreenOptions,
} from './screen.js';
export { connectedSocket, FakeWebSocket, installFakeWebSocket, openSockets } from './web-socket.js';
