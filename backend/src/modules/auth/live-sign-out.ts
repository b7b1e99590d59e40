import type { Logger } from '@nestjs/common';
import { LIVE_EVENT } from '@termpaste/contracts';
import type { EventsPort } from '../../infra/events/events.port.js';

/** Which of the member's sessions lost their sockets: all but one (`exceptSession`), or one alone. */
export type SignedOutSessions = { exceptSession?: string; onlySession?: string };

/**
 * After a commit that revoked sessions (reset; change: all but `exceptSession`; sign-out: `onlySession`),
 * tells every instance to close those sessions' sockets (4001). A failing bus is logged: the sockets live
 * until they reconnect, and their upgrade is then refused.
 */
export async function signOutLive(
  events: EventsPort,
  logger: Logger,
  userId: number,
  sessions: string | SignedOutSessions = {},
): Promise<void> {
  const { exceptSession, onlySession } =
    typeof sessions === 'string' ? { exceptSession: sessions, onlySession: undefined } : sessions;
  try {
    await events.publish({
      to: 'user',
      userId,
      ...(exceptSession === undefined ? {} : { exceptSession }),
      ...(onlySession === undefined ? {} : { onlySession }),
      event: { type: LIVE_EVENT.signedOut },
    });
  } catch (error) {
    logger.warn(
      `Could not sign member ${userId} out live: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
