import type { IncomingMessage } from 'node:http';

/** Whether the request carries a cookie named `name` (its value unread: presence is what counts). */
export function hasCookie(req: IncomingMessage, name: string): boolean {
  const header = req.headers.cookie;
  if (header === undefined) return false;
  const prefix = `${name}=`;
  // Most requests carry other cookies only: no split for them.
  if (!header.includes(prefix)) return false;
  return header.split(';').some((part) => part.trimStart().startsWith(prefix));
}
