// Tags, watching, following, the away mail over SMTP with its one-click unsubscribe, a tag's feed and
// an embed: a newcomer's path through nginx, the mails sent by the worker.
import { mailText } from '../../harness/smtp.mjs';
import { assert, waitFor } from '../../harness/wait.mjs';
import { requestFrom, User } from './user.mjs';

export const calledBack = {
  name: 'watch, follow, tag: the away mail over SMTP, its one-click unsubscribe, the feed and the embed',
  async run(env) {
    const { alice, bob, smtp } = env;
    // Members of their own (the later steps count the others' notifications). erin has no socket
    // open: she is away, and wants watched pastes and followed members by mail.
    const [erin, frank] = [new User(env, 'erin2'), new User(env, 'frank2')];
    for (const member of [erin, frank]) await member.register();
    for (const member of [erin, frank]) await member.verify();
    await erin.expect(200, 'PUT', '/api/user/notification-preferences', { watch: 'email', follow: 'email' });
    const bobId = (await bob.expect(200, 'GET', '/api/auth/user')).json.id;
    await erin.expect(204, 'PUT', `/api/users/${bobId}/follow`);
    const before = smtp.received.length;
    const tagged = await bob.expect(201, 'POST', '/api/threads', {
      title: 'Tagged in production',
      content: 'echo "called back"',
      language: 'bash',
      tags: ['smoke-tag', 'prod'],
    });
    const threadId = tagged.json.id;
    await erin.expect(204, 'PUT', `/api/threads/${threadId}/watch`);
    await frank.expect(201, 'POST', `/api/threads/${threadId}/replies`, { content: 'A reply erin watches' });

    const mailsToErin = () => smtp.received.slice(before).filter((mail) => mail.to.includes(erin.email));
    // Both notices (a follow, a watch) are in one mail, or the second waits for the next one.
    await waitFor(
      'the away mail(s) to erin naming the reply and the followed paste',
      () => {
        const text = mailsToErin()
          .map((mail) => mailText(mail.raw))
          .join('\n');
        return text.includes(`/thread/${threadId}`) && text.includes(`/thread/${tagged.json.id}`);
      },
      30_000,
    );
    const [first] = mailsToErin();
    assert(mailsToErin().length <= 2, `${mailsToErin().length} mails to erin for two notices`);
    const headers = first.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
    assert(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im.test(headers), 'no List-Unsubscribe-Post');
    const link = /^List-Unsubscribe:.*?<(https?:\/\/[^>]+)>/im.exec(headers)?.[1];
    assert(link?.startsWith(`${env.publicUrl}/api/unsubscribe?token=`), `List-Unsubscribe is ${link}`);

    // A mail client's one-click POST: no cookie, no Origin of ours, a form body.
    const oneClick = await requestFrom('127.0.0.99', link, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://mail.example.net' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert(oneClick.status < 300, `the one-click unsubscribe answered ${oneClick.status}: ${oneClick.text}`);
    const prefs = (await erin.expect(200, 'GET', '/api/user/notification-preferences')).json;
    const off = Object.entries(prefs).filter(([, value]) => value === 'site' || value === 'never');
    assert(
      prefs.watch === 'site' || prefs.follow === 'site',
      `after unsubscribing erin still has ${JSON.stringify(prefs)}`,
    );

    // The tag's feed and the embed, through nginx.
    const feed = await requestFrom('127.0.0.98', `${env.publicUrl}/feeds/tags/smoke-tag.atom`);
    assert(feed.status === 200, `the tag feed answered ${feed.status}`);
    assert(/application\/atom\+xml/.test(feed.headers.get('content-type') ?? ''), 'the feed is not Atom');
    assert(feed.text.includes('Tagged in production'), 'the tag feed does not list the paste');
    const embed = await requestFrom('127.0.0.98', `${env.publicUrl}/embed/${tagged.json.id}`);
    const csp = embed.headers.get('content-security-policy') ?? '';
    assert(embed.status === 200 && /frame-ancestors \*/.test(csp), `the embed: ${embed.status}, ${csp}`);
    assert(!embed.headers.has('x-frame-options'), 'the embed carries X-Frame-Options');
    const home = await requestFrom('127.0.0.98', `${env.publicUrl}/`);
    assert(
      /frame-ancestors 'none'/.test(home.headers.get('content-security-policy') ?? ''),
      'home is framable',
    );
    await alice.expect(200, 'GET', `/api/tags/smoke-tag`);
    return `${mailsToErin().length} mail(s) to erin; one-click unsubscribe turned off ${off.map(([k]) => k).join(', ')}; feed and embed through nginx`;
  },
};
