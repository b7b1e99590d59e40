import type { IncomingMessage } from 'node:http';
import { readsOwnBody } from './body-parsing.js';

const request = (method: string, url: string) => ({ method, url }) as IncomingMessage;

describe('the routes that read their own body', () => {
  it('leave a paste from the terminal unread, whatever its type', () => {
    expect(readsOwnBody(request('POST', '/api/pastes'), 'json')).toBe(true);
    expect(readsOwnBody(request('POST', '/api/pastes?x=1'), 'form')).toBe(true);
    // As loosely as the router may match: any case, a trailing slash.
    expect(readsOwnBody(request('POST', '/api/Pastes/'), 'form')).toBe(true);
    expect(readsOwnBody(request('PUT', '/api/pastes'), 'form')).toBe(false);
  });

  it('leave the web form’s paste and an edit’s JSON unread, and parse their forms', () => {
    expect(readsOwnBody(request('POST', '/api/threads'), 'json')).toBe(true);
    expect(readsOwnBody(request('POST', '/api/threads'), 'form')).toBe(false);
    expect(readsOwnBody(request('PATCH', '/api/threads/12'), 'json')).toBe(true);
    expect(readsOwnBody(request('PATCH', '/api/threads/12/replies'), 'json')).toBe(false);
    expect(readsOwnBody(request('POST', '/api/threads/12/replies'), 'json')).toBe(false);
  });

  it('leave every body under /api/uploads unread, and no other', () => {
    expect(readsOwnBody(request('POST', '/api/uploads'), 'form')).toBe(true);
    expect(readsOwnBody(request('PUT', '/api/uploads/avatars/a.png'), 'json')).toBe(true);
    expect(readsOwnBody(request('POST', '/api/uploadsx'), 'json')).toBe(false);
    expect(readsOwnBody(request('POST', '/api/login'), 'json')).toBe(false);
  });
});
