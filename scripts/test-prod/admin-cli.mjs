// The built admin CLI (the image's `termpaste`) against the production stack: PostgreSQL, Redis, the
// worker and the APIs running. It creates a member, whose printed link sets a password through nginx,
// bans them (their session ends at once, the worker mails them) and unbans them; each change audited as cli.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { root } from '../../harness/paths.mjs';
import { mailText } from '../../harness/smtp.mjs';
import { assert, waitFor } from '../../harness/wait.mjs';
import { User } from './user.mjs';

const run = promisify(execFile);

export const adminCli = {
  name: 'the admin CLI: create-user (its link sets the password), ban (signed out, mailed), unban',
  async run(env) {
    const termpaste = async (...args) => {
      const started = Date.now();
      const result = await run(process.execPath, [join(root, 'backend/dist/cli.js'), ...args], {
        env: env.backendEnv,
      }).catch((error) => error);
      assert(!result.code, `termpaste ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
      return { out: result.stdout.trim(), ms: Date.now() - started };
    };
    const member = new User(env, 'operator_made');
    const created = await termpaste('create-user', member.username, member.email);
    const link = new RegExp(
      `^Set the password at: ${env.publicUrl}/reset-password\\?token=([\\w-]+)$`,
      'm',
    ).exec(created.out);
    assert(link, `create-user printed no link on PUBLIC_URL: ${created.out}`);
    await new User(env, 'visitor').expect(200, 'POST', '/api/reset-password', {
      token: link[1],
      newPassword: member.password,
    });
    await member.expect(200, 'POST', '/api/login', {
      usernameOrEmail: member.username,
      password: member.password,
    });
    const me = await member.expect(200, 'GET', '/api/auth/user');
    assert(me.json.emailVerified === true, `the member's address is not verified: ${me.text}`);

    const before = env.smtp.received.length;
    const banned = await termpaste('ban', member.username, '--days', '1', '--reason', 'smoke test');
    const signedOut = await member.request('GET', '/api/auth/user');
    assert(signedOut.status === 401, `the member's session still works after the ban (${signedOut.status})`);
    // Sent by the worker: the CLI writes it to the outbox (the password-changed mail may come first).
    await waitFor('the suspension mail at the SMTP listener', () =>
      env.smtp.received
        .slice(before)
        .some(
          (message) =>
            message.to.includes(member.email) && mailText(message.raw).includes('Reason: smoke test'),
        ),
    );

    await termpaste('unban', member.username);
    member.cookie = undefined;
    await member.expect(200, 'POST', '/api/login', {
      usernameOrEmail: member.username,
      password: member.password,
    });

    const { rows } = await env.db.query(
      "SELECT action FROM audit_log WHERE actor_name = 'cli' AND target_label = $1 ORDER BY id",
      [member.username],
    );
    const actions = rows.map((row) => row.action).join(', ');
    assert(actions === 'user.create, user.ban, user.unban', `audit log: ${actions}`);
    return `create-user ${created.ms} ms, ban ${banned.ms} ms (Redis queue and events), audited as cli`;
  },
};
