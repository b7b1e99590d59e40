// The members' load: each member, one request at a time, posts pastes, replies (some to replies, some
// @mentioning another member), votes on pastes and replies, chats and sends private messages, until the
// time is up. Every answer is counted by status; every acknowledged write (2xx) is recorded with what was
// sent, so the checks can find it in the database afterwards.
import { setTimeout as sleep } from 'node:timers/promises';
import { random } from '../../harness/random.mjs';

const WORDS = `kernel panic segfault stack trace heap buffer overflow daemon cron socket mutex deadlock race
  pointer null undefined promise async await thread fork exec pipe grep awk sed regex shell bash zsh vim
  emacs tmux ssh tls cert hash salt pepper nonce cipher block stream packet frame router switch vlan`.split(
  /\s+/,
);
const UNICODE = ['héllo', 'naïve', '日本語', 'Ελληνικά', 'emoji 🚀🔥', 'zero​width', 'tab\tinside', 'ümlaut'];

function pick(list, rand) {
  return list[Math.floor(rand() * list.length)];
}

function text(rand, words, { code = false } = {}) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(rand() < 0.05 ? pick(UNICODE, rand) : pick(WORDS, rand));
  const line = out.join(' ');
  return code
    ? `${line}\n\n\`\`\`sh\n$ ${pick(WORDS, rand)} --${pick(WORDS, rand)} | grep ${pick(WORDS, rand)}\n\`\`\``
    : line;
}

/** What the load did: answers by status, the 5xx seen, and every acknowledged write. */
export class Ledger {
  constructor() {
    this.statuses = new Map();
    this.serverErrors = [];
    this.pastes = [];
    this.replies = [];
    this.chats = [];
    this.messages = [];
    /** `${memberId}:${kind}:${id}` → the vote in force after the member's last answered vote, or 'unknown'. */
    this.votes = new Map();
    this.requests = 0;
    /** 503 answers without a Retry-After header. */
    this.withoutRetryAfter = 0;
  }

  count(res, what) {
    this.requests += 1;
    this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
    if (res.status === 503 && !res.headers.get('retry-after')) this.withoutRetryAfter += 1;
    if (res.status >= 500) {
      this.serverErrors.push(`${what} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
    }
  }

  get writes() {
    return (
      this.pastes.length + this.replies.length + this.chats.length + this.messages.length + this.votes.size
    );
  }

  /** `200: 1234, 503: 12, no answer: 3` */
  statusLine() {
    return [...this.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status === 0 ? 'no answer' : status}: ${n}`)
      .join(', ');
  }
}

const ok = (res) => res.status >= 200 && res.status < 300;

/**
 * Runs `members` against the app until `signal` aborts. `ledger` collects the answers; `pause` (ms) is
 * each member's think time between requests.
 */
export async function runWorkload(members, { ledger, signal, seed = 1, pause = 0 }) {
  const rand = random(seed);
  // Known targets, shared by everyone: what was acknowledged so far.
  const pastes = ledger.pastes;
  const replies = ledger.replies;

  async function step(member, own) {
    const roll = own();
    if (roll < 0.15 || pastes.length < 5) {
      const body = {
        title: `${text(own, 3)} #${Math.floor(own() * 1e6)}`,
        content: text(own, 20, { code: own() < 0.3 }),
      };
      const res = await member.post('/api/threads', body);
      ledger.count(res, 'create paste');
      if (ok(res)) pastes.push({ id: res.body.id, authorId: member.id, ...body });
    } else if (roll < 0.5) {
      const thread = pick(pastes, own);
      const siblings = replies.filter((r) => r.threadId === thread.id);
      const parent = siblings.length > 0 && own() < 0.4 ? pick(siblings, own) : undefined;
      const mention = own() < 0.2 ? pick(members, own) : undefined;
      const content = `${text(own, 12)}${mention ? ` @${mention.username}` : ''}`;
      const body = { content, ...(parent ? { parentId: parent.id } : {}) };
      const res = await member.post(`/api/threads/${thread.id}/replies`, body);
      ledger.count(res, 'reply');
      if (ok(res)) {
        replies.push({
          id: res.body.id,
          threadId: thread.id,
          parentId: parent?.id ?? null,
          authorId: member.id,
          content,
          mentionedId: mention?.id,
        });
      }
    } else if (roll < 0.8) {
      const onReply = replies.length > 0 && own() < 0.4;
      const target = onReply ? pick(replies, own) : pick(pastes, own);
      const value = own() < 0.75 ? 1 : -1;
      const body = onReply ? { replyId: target.id, value } : { threadId: target.id, value };
      const key = `${member.id}:${onReply ? 'reply' : 'thread'}:${target.id}`;
      const res = await member.post('/api/votes', body);
      ledger.count(res, 'vote');
      // An unanswered vote may or may not have been applied: the target's state is unknown until the next
      // answered one, which reports the vote then in force.
      if (ok(res)) ledger.votes.set(key, res.body.value);
      else if (res.status === 0 || res.status >= 500) ledger.votes.set(key, 'unknown');
    } else if (roll < 0.95) {
      const content = text(own, 6);
      const res = await member.post('/api/chat', { message: content });
      ledger.count(res, 'chat');
      if (ok(res)) ledger.chats.push({ id: res.body.id, authorId: member.id, content });
    } else {
      let to = pick(members, own);
      if (to === member) to = members[(members.indexOf(member) + 1) % members.length];
      const body = { recipientEmail: to.email, subject: text(own, 3), content: text(own, 15) };
      const res = await member.post('/api/messages', body);
      ledger.count(res, 'message');
      if (ok(res))
        ledger.messages.push({ id: res.body.id, senderId: member.id, recipientId: to.id, ...body });
    }
  }

  await Promise.all(
    members.map(async (member, i) => {
      const own = random(seed * 1000 + i + Math.floor(rand() * 1e6));
      while (!signal.aborted) {
        const before = ledger.statuses.get(0) ?? 0;
        await step(member, own);
        if (pause) await sleep(pause * (0.5 + own()));
        // Nobody answered (the API is down): a person would wait a moment before trying again.
        if ((ledger.statuses.get(0) ?? 0) > before) await sleep(200);
      }
    }),
  );
}
