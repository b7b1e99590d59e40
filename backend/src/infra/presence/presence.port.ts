/**
 * The presence port: who is here now (`online`, `thread:12`), once per member over every instance. Join
 * once per (topic, member) per instance; leave with its last socket. docs/backend.md.
 */
export abstract class PresencePort {
  /** This instance holds `member` in `topic`; returns the topic's count afterwards. */
  abstract join(topic: string, member: string): Promise<number>;
  /** This instance no longer holds `member` in `topic`; returns the topic's count afterwards. */
  abstract leave(topic: string, member: string): Promise<number>;
  /** Each topic's count now, in order. */
  abstract counts(topics: string[]): Promise<number[]>;
  /** Whether each of `members` is in `topic` now (on any instance), in order. */
  abstract present(topic: string, members: string[]): Promise<boolean[]>;
}

/** The topic of the members online (a live socket of theirs open anywhere). */
export const ONLINE_TOPIC = 'online';
/** The topic of the members reading a paste. */
export const pasteTopic = (threadId: number): string => `thread:${threadId}`;
/** The paste a topic of pasteTopic's is of, or null for another topic. */
export function pasteOfTopic(topic: string): number | null {
  const id = /^thread:(\d+)$/.exec(topic)?.[1];
  return id === undefined ? null : Number(id);
}
/** The topic of the visitor sockets of one client address (members: the sockets' ids). */
export const visitorsTopic = (address: string): string => `visitors:${address}`;
