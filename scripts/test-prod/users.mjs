// Members sign up through nginx, verify with the mailed link, and the owner posts the paste the rest use.
import { assert } from '../../harness/wait.mjs';
import { User } from './user.mjs';

export const usersAndPaste = {
  name: 'through nginx: register and verify members (alice, OWNER_EMAIL, is the owner) and post a paste',
  async run(env) {
    const alice = new User(env, 'alice');
    const bob = new User(env, 'bob');
    const mentioned = ['carol', 'dave', 'erin', 'frank', 'grace'].map((name) => new User(env, name));
    Object.assign(env, { alice, bob, mentioned });
    for (const member of [alice, bob, ...mentioned]) await member.register();
    // The worker sends the verification mails over SMTP; their links let the members write.
    for (const member of [alice, bob, ...mentioned]) await member.verify();
    const me = (await alice.expect(200, 'GET', '/api/auth/user')).json;
    assert(me.isAdmin === true && me.isOwner === true, `alice is not the owner: ${JSON.stringify(me)}`);
    const created = await alice.expect(201, 'POST', '/api/threads', {
      title: 'Smoke test paste',
      content: '```\nhello from the production-mode smoke run\n```',
    });
    const threadId = created.json.id;
    env.threadId = threadId;
    const thread = await bob.expect(200, 'GET', `/api/threads/${threadId}`);
    assert(thread.json.title === 'Smoke test paste', `the paste reads back as ${thread.text.slice(0, 200)}`);
    return `${2 + mentioned.length} members, paste #${threadId}`;
  },
};
