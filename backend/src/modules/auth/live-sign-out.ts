import type { Logger } from '@nestjs/common';
import { LIVE_EVENT } from '@termpaste/contracts';
import type { EventsPort } from '../../infra/events/events.port.js';

/** Which of the member's sessions lost their sockets: all but one (`exceptSession`), or one alone. */
export type SignedOutSessions = { exceptSession?: string; onlySession?: string };

/**
 * After a commit that revoked a member's sessions (a password reset; a change: all but the changing
 * session, `exceptSession`; a sign-out: that session alone, `onlySession`): tells every instance to send
 * `signed_out` to those sessions' live sockets and close them (4001). The change stands whatever happens:
 * a bus that cannot carry it is logged, and the sockets then live on until they reconnect (their upgrade
 * is refused, the sessions being gone).
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
