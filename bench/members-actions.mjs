// One action of a simulated member, as the mix draws it (members-load.mjs runs them): `ctx` is the load
// generator's state and helpers, passed in so that this file holds the actions alone.
import { performance } from 'node:perf_hooks';

/** The action runner over `ctx` (init, window, chats, nextChat, openSockets and the request helpers). */
export function makeAct(ctx) {
  return async function act(member, action) {
    const { cookie } = member;
    switch (action) {
      case 'reload': {
        // The forum opened again (a reload, a new tab): a new socket, then home.
        member.reloading = true;
        member.socket?.close();
        member.reloading = false;
        const why = await ctx.connect(member);
        const w = ctx.window();
        if (why && w) {
          w.errors++;
          if (w.errorSamples.length < 5) w.errorSamples.push(`reload: ${why}`);
        }
        const r = await ctx.request('GET', '/api/threads/recent', { cookie });
        ctx.record('reads', action, r, r.status === 200);
        ctx.watch(member, { thread: null, cards: ctx.init().homeIds.slice(0, 20), lists: true });
        return;
      }
      case 'home': {
        const r = await ctx.request('GET', '/api/threads/recent', { cookie });
        ctx.record('reads', action, r, r.status === 200);
        ctx.watch(member, { thread: null, cards: ctx.init().homeIds.slice(0, 20), lists: true });
        return;
      }
      case 'paste': {
        const id = ctx.pasteId();
        const r = await ctx.request('GET', `/api/threads/${id}`, { cookie });
        ctx.record('reads', action, r, r.status === 200);
        ctx.watch(member, { thread: id, cards: [], lists: false });
        member.paste = id;
        return;
      }
      case 'profile': {
        const r = await ctx.request('GET', `/api/users/${ctx.pick(ctx.init().profileIds)}`, { cookie });
        ctx.record('reads', action, r, r.status === 200);
        return;
      }
      case 'search': {
        const r = await ctx.request(
          'GET',
          `/api/search?q=${encodeURIComponent(ctx.pick(ctx.init().words))}`,
          { cookie },
        );
        ctx.record('reads', action, r, r.status === 200);
        return;
      }
      case 'vote': {
        // A vote on the paste they read (or one of home's); the same vote again takes it back.
        const threadId = member.paste ?? ctx.pick(ctx.init().homeIds);
        const r = await ctx.request('POST', '/api/votes', { cookie, body: { threadId, value: 1 } });
        ctx.record('writes', action, r, r.status >= 200 && r.status < 300);
        return;
      }
      case 'reply': {
        const threadId = ctx.init().replyIds.includes(member.paste)
          ? member.paste
          : ctx.pick(ctx.init().replyIds);
        const content = `Member ${member.id} answers: have you tried the ${ctx.pick(ctx.init().words)} flag? (${++member.seq})`;
        const r = await ctx.request('POST', `/api/threads/${threadId}/replies`, {
          cookie,
          body: { content },
          wantBody: true,
        });
        const ok = r.status === 201 && Number.isInteger(r.body?.id);
        ctx.record('writes', action, r, ok || r.status === 202);
        if (ok) ctx.window()?.replies.push(r.body.id);
        else if (r.status === 202 && ctx.window()) ctx.window().held++;
        return;
      }
      case 'post': {
        const body = {
          title: `Member ${member.id}: ${ctx.pick(ctx.init().words)} notes ${++member.seq}`,
          content: `# ${ctx.pick(ctx.init().words)}\n\n${ctx.init().words.slice(0, 40).join(' ')}\n\n    $ ${ctx.pick(ctx.init().words)} --verbose\n`,
        };
        const r = await ctx.request('POST', '/api/threads', { cookie, body, wantBody: true });
        const ok = r.status === 201 && Number.isInteger(r.body?.id);
        ctx.record('writes', action, r, ok || r.status === 202);
        if (ok) ctx.window()?.pastes.push(r.body.id);
        else if (r.status === 202 && ctx.window()) ctx.window().held++;
        return;
      }
      case 'chat': {
        const seq = ctx.nextChat();
        const sentAt = performance.now();
        // Every member socket open now must get it.
        if (ctx.window())
          ctx.chats.set(seq, { sentAt, expected: ctx.openSockets(), delivered: 0, latencies: [] });
        const r = await ctx.request('POST', '/api/chat/messages', {
          cookie,
          body: { content: `members chat ${seq}` },
          wantBody: true,
        });
        const ok = r.status === 201 || r.status === 200;
        ctx.record('writes', action, r, ok);
        if (!ok) ctx.chats.delete(seq);
        else if (Number.isInteger(r.body?.id)) ctx.window()?.chatIds.push(r.body.id);
        return;
      }
    }
  };
}

/** A window's latencies: how many, p50, p99 and the longest (ms, to a tenth). */
export function summary(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p) =>
    sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1) : null;
  return {
    count: sorted.length,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted.length ? +sorted[sorted.length - 1].toFixed(1) : null,
  };
}
