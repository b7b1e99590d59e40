/**
 * Test support for the messaging specs: its contract-typed fixtures and chat API stub, and the helpers
 * every frontend's specs share (@termpaste/ui/testing: the recording fetch stub, the fake WebSocket, the
 * toast check, one way to render a screen). Only specs import it, so the build (src/index.ts and the
 * exposed src/screens.tsx) never bundles it.
 *
 * Importing it registers, for the importing spec file, a beforeEach that installs the fake WebSocket and
 * an afterEach that clears the toasts and puts the real fetch and WebSocket back.
 */
import { API, type ChatMessage, type Notification, type PrivateMessage } from '@termpaste/contracts';
import { sampleCurrentUser } from '@termpaste/contracts/testing';
import {
  installFakeWebSocket,
  minutesAgo,
  sampleAuthor,
  stubApi,
  type FetchHandler,
} from '@termpaste/ui/testing';

export * from '@termpaste/ui/testing';

installFakeWebSocket();

// ---- Fixtures: override what a test is about.

/** neo (id 7, the signed-in sampleCurrentUser) as others see him. */
export const neo = () => sampleAuthor({ id: 7, username: 'neo', reputation: 42 });

/** Message 21 from trinity to neo, 'meet at the construct', unread, two hours old. */
export function sampleMessage(overrides: Partial<PrivateMessage> = {}): PrivateMessage {
  return {
    id: 21,
    sender: sampleAuthor(),
    recipient: neo(),
    recipientAddress: null,
    subject: 'meet at the construct',
    content: 'Bring the **red** pill.',
    createdAt: minutesAgo(120),
    isRead: false,
    ...overrides,
  };
}

/** Notification 31: trinity replied on paste 5, unread, ten minutes old. */
export function sampleNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: 31,
    type: 'reply',
    content: 'trinity replied to your paste "nmap cheatsheet"',
    isRead: false,
    createdAt: minutesAgo(10),
    threadId: 5,
    actor: sampleAuthor(),
    ...overrides,
  };
}

/** A chat line by trinity; its text and age follow its id ('chat line 41', 41 minutes before the hour). */
export function sampleChat(overrides: Partial<ChatMessage> = {}): ChatMessage {
  const id = overrides.id ?? 41;
  return {
    id,
    content: `chat line ${id}`,
    createdAt: minutesAgo(100 - id),
    author: sampleAuthor(),
    hidden: false,
    ...overrides,
  };
}

// ---- API

/**
 * The chat's API for a screen that reads its history at `historyUrl`: `chatApi(url)(state, onWrite)`
 * answers that GET with `state.history` (newest first, as the API sends it; a test may change it) and
 * GET /api/auth/user with the signed-in member; other reads 404 and writes go to `onWrite` (201 `{}` by
 * default).
 */
export const chatApi =
  (historyUrl: string) =>
  (state: { history: ChatMessage[] }, onWrite: FetchHandler = () => ({ status: 201, body: {} })) =>
    stubApi((url) => {
      if (url === historyUrl) return state.history;
      if (url === API.currentUser) return sampleCurrentUser();
      return undefined;
    }, onWrite);
