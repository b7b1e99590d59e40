import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { EventsPort } from '../infra/events/events.port.js';
import { isBearerRequest } from '../modules/auth/guards/bearer.js';

/** How long after a write its client's reads skip the page cache and the replicas: the fresh cookie's. */
export const CLIENT_FRESH_SECONDS = 10;

/**
 * A write answered within this of its start is told once, as it starts: its window then counts from
 * its start, as good as from its end. A longer one is told again as it ends (ms).
 */
export const CLIENT_WRITE_RETELL_MS = 1000;

/** Reads by an access-token client that wrote a moment ago (on any instance): see FreshClients. */
const freshRequests = new WeakSet<Request>();

/** Whether `req` is an access-token client's read within CLIENT_FRESH_SECONDS of a write of theirs. */
export function isFreshClientRead(req: Request): boolean {
  return freshRequests.has(req);
}

/** An access token's client (its Authorization header), as instances tell each other of it: a hash. */
export function clientKey(authorization: string): string {
  return createHash('sha256').update(authorization).digest('base64url').slice(0, 22);
}

/**
 * Read-your-writes for access-token clients, which keep no cookie: a write by a token marks its client
 * on every instance (an instance event, through Redis with REDIS_URL) as it starts, and a long one as it
 * ends; that client's reads in the CLIENT_FRESH_SECONDS that follow skip the page cache and the replicas.
 */
@Injectable()
export class FreshClients implements OnModuleInit, OnModuleDestroy {
  private readonly until = new Map<string, number>();
  private readonly logger = new Logger('FreshClients');
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly events: EventsPort) {}

  onModuleInit(): void {
    this.unsubscribe = this.events.onBroadcast((event) => {
      if (event.type === 'client_wrote') this.remember(event.client);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** Middleware for `/api`. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (!isBearerRequest(req)) return next();
    const client = clientKey(req.headers.authorization ?? '');
    if (req.method === 'GET' || req.method === 'HEAD') {
      if ((this.until.get(client) ?? 0) > Date.now()) freshRequests.add(req);
      return next();
    }
    // Again once answered if it was long: its window counts from its end.
    const started = Date.now();
    res.on('finish', () => {
      if (Date.now() - started > CLIENT_WRITE_RETELL_MS) void this.announce(client);
    });
    // Told to every instance before the write runs, so its answer never outruns the mark.
    void this.announce(client).then(() => next());
  };

  private announce(client: string): Promise<void> {
    return this.events.broadcast({ type: 'client_wrote', client }).catch((error: unknown) => {
      this.remember(client);
      this.logger.warn(`Could not tell the instances of a client's write: ${String(error)}`);
    });
  }

  private remember(client: string): void {
    const now = Date.now();
    if (this.until.size > 10_000) {
      for (const [key, until] of this.until) if (until <= now) this.until.delete(key);
    }
    this.until.set(client, now + CLIENT_FRESH_SECONDS * 1000);
  }
}
