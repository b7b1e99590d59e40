import { jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import type { EventsPort, InstanceEvent } from '../infra/events/events.port.js';
import { CLIENT_WRITE_RETELL_MS, FreshClients, clientKey, isFreshClientRead } from './fresh-reads.js';

/** The instance events told, and the listeners the instances would call for them. */
function fakeEvents() {
  const told: InstanceEvent[] = [];
  const listeners: Array<(event: InstanceEvent) => void> = [];
  const events = {
    broadcast: (event: InstanceEvent) => {
      told.push(event);
      for (const listener of listeners) listener(event);
      return Promise.resolve();
    },
    onBroadcast: (listener: (event: InstanceEvent) => void) => {
      listeners.push(listener);
      return () => undefined;
    },
  } as unknown as EventsPort;
  return { events, told };
}

const TOKEN = 'Bearer tp_abc';

/** Runs `method` through the middleware; resolves once it called next, with the response to finish. */
async function request(fresh: FreshClients, method: string) {
  const req = { method, headers: { authorization: TOKEN } } as Request;
  const res = new EventEmitter() as unknown as Response;
  await new Promise<void>((resolve) => fresh.middleware(req, res, resolve as NextFunction));
  return { req, finish: () => (res as unknown as EventEmitter).emit('finish') };
}

describe('FreshClients: a token client reads its own writes', () => {
  afterEach(() => jest.useRealTimers());

  it('tells the instances of a write once, before it runs; its next reads are fresh', async () => {
    const { events, told } = fakeEvents();
    const fresh = new FreshClients(events);
    fresh.onModuleInit();
    const write = await request(fresh, 'POST');
    expect(told).toEqual([{ type: 'client_wrote', client: clientKey(TOKEN) }]);
    write.finish();
    expect(told).toHaveLength(1);
    expect(isFreshClientRead((await request(fresh, 'GET')).req)).toBe(true);
  });

  it('tells them again as it ends when the write was long, so its window counts from its end', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const { events, told } = fakeEvents();
    const fresh = new FreshClients(events);
    fresh.onModuleInit();
    const write = await request(fresh, 'PATCH');
    jest.advanceTimersByTime(CLIENT_WRITE_RETELL_MS + 1);
    write.finish();
    expect(told).toHaveLength(2);
  });

  it('leaves a read by a client that did not write as it is, and a read without a token alone', async () => {
    const { events, told } = fakeEvents();
    const fresh = new FreshClients(events);
    fresh.onModuleInit();
    expect(isFreshClientRead((await request(fresh, 'GET')).req)).toBe(false);
    expect(told).toEqual([]);
  });
});
