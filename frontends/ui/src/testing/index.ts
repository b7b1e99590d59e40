/**
 * @termpaste/ui/testing: what the specs of the shell and the remotes share; only specs import it.
 * Importing it clears the toasts and restores fetch after each test; installFakeWebSocket() fakes
 * `WebSocket` for a spec file's tests.
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
