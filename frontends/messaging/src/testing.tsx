/**
 * Test support for the messaging specs (fixtures, a chat API stub, @termpaste/ui/testing's helpers).
 * Only specs import it. Importing it installs the fake WebSocket before each test and restores the real
 * fetch and WebSocket after.
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
 * The chat's API for a screen reading its history at `historyUrl`: that GET answers `state.history`
 * (newest first), GET /api/auth/user the member; other reads 404, writes go to `onWrite` (201 `{}`).
 */
export const chatApi =
  (historyUrl: string) =>
  (state: { history: ChatMessage[] }, onWrite: FetchHandler = () => ({ status: 201, body: {} })) =>
    stubApi((url) => {
      if (url === historyUrl) return state.history;
      if (url === API.currentUser) return sampleCurrentUser();
      return undefined;
    }, onWrite);
