/**
 * The presence port (issue 18): who is here now, counted across every instance. A topic (`online`,
 * `thread:12`, `visitors:<address>`) holds members (a member's id, a socket's id); each instance says
 * which members it holds (`join`) and lets go of them (`leave`), and a topic's count is its distinct
 * members over every instance. A member held by two instances counts once, and stays until both let go.
 *
 * Two adapters: in-process (embedded, one instance) and Redis (REDIS_URL), where what an instance holds
 * lives only as long as it renews it (a heartbeat): an instance that crashed stops renewing, and its
 * members drop out of the counts within the time to live.
 *
 * Callers join a (topic, member) once however many sockets stand for it on this instance (the live
 * gateway counts those), and leave it when the last one goes.
 */
export abstract class PresencePort {
  /** This instance holds `member` in `topic`; returns the topic's count afterwards. */
  abstract join(topic: string, member: string): Promise<number>;
  /** This instance no longer holds `member` in `topic`; returns the topic's count afterwards. */
  abstract leave(topic: string, member: string): Promise<number>;
  /** Each topic's count now, in order. */
  abstract counts(topics: string[]): Promise<number[]>;
}

/** The topic of the members online (a live socket of theirs open anywhere). */
export const ONLINE_TOPIC = 'online';
/** The topic of the members reading a paste. */
export const threadTopic = (threadId: number): string => `thread:${threadId}`;
/** The paste a topic of threadTopic's is of, or null for another topic. */
export function threadOfTopic(topic: string): number | null {
  const id = /^thread:(\d+)$/.exec(topic)?.[1];
  return id === undefined ? null : Number(id);
}
/** The topic of the visitor sockets of one client address (members: the sockets' ids). */
export const visitorsTopic = (address: string): string => `visitors:${address}`;
