// A member's browser on a machine of its own: every request from its own loopback address, through nginx.
import { request as httpRequest } from 'node:http';
import { backendRequire } from '../../harness/paths.mjs';
import { mailText } from '../../harness/smtp.mjs';
import { assert, waitFor } from '../../harness/wait.mjs';
import { PASSWORD } from './context.mjs';

const WebSocket = backendRequire('ws');

/**
 * One HTTP request from the local address `from` (any of 127.0.0.0/8 reaches loopback): what nginx sees
 * as the client's address, as different machines would be. Answers `{ status, headers, text }`.
 */
export function requestFrom(from, url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress: from }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const answer = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          answer.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        resolve({ status: res.statusCode, headers: answer, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Each member's own client address, 127.0.0.10 and up. */
let nextAddress = 10;
export const newClientAddress = () => `127.0.0.${nextAddress++}`;

/**
 * A browser of one member, on a machine of its own (its own client address): its session cookie, and
 * requests with our own Origin (the CSRF check).
 */
export class User {
  constructor(env, username) {
    this.env = env;
    this.username = username;
    this.email = `${username}@example.com`;
    this.password = PASSWORD;
    this.address = newClientAddress();
    this.cookie = undefined;
    this.id = undefined;
  }

  /** `via`: the base URL to go through (nginx's production port unless told). */
  async request(method, path, body, via = this.env.publicUrl, headers = {}) {
    const res = await requestFrom(this.address, `${via}${path}`, {
      method,
      headers: {
        Origin: this.env.publicUrl,
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const session = res.headers.getSetCookie().find((cookie) => cookie.startsWith('termpaste.sid='));
    if (session) this.cookie = session.split(';')[0];
    const { text } = res;
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  async expect(status, method, path, body, via) {
    const res = await this.request(method, path, body, via);
    assert(
      res.status === status,
      `${method} ${path} answered ${res.status}, not ${status}: ${res.text.slice(0, 300)}`,
    );
    return res;
  }

  async register() {
    const res = await this.expect(201, 'POST', '/api/register', {
      username: this.username,
      email: this.email,
      password: this.password,
    });
    assert(this.cookie, `registering ${this.username} set no session cookie`);
    this.id = res.json.id;
    return this;
  }

  /** Opens the link of the verification mail the SMTP listener got for this member (members write only then). */
  async verify() {
    const escaped = this.env.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`${escaped}/verify-email\\?token=([A-Za-z0-9_-]+)`);
    const token = await waitFor(`the verification mail to ${this.email}`, () => {
      const mail = this.env.smtp.received.findLast((message) => message.to.includes(this.email));
      return mail && pattern.exec(mailText(mail.raw))?.[1];
    });
    await this.expect(200, 'POST', '/api/verify-email', { token });
    return this;
  }

  async notifications() {
    return (await this.expect(200, 'GET', '/api/notifications')).json;
  }

  /** A live socket on `/ws/chat` through `via`, recording every frame. */
  async connect(via, query = '') {
    const url = `${via.replace(/^http/, 'ws')}/ws/chat${query}`;
    const ws = new WebSocket(url, { headers: { Cookie: this.cookie }, origin: this.env.publicUrl });
    const frames = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.on('error', () => undefined);
    return { ws, frames, close: () => ws.close() };
  }
}
