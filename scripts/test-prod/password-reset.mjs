// The password reset mail goes out over real SMTP, and its link works behind nginx.
import { assert, waitFor } from '../../harness/wait.mjs';
import { mailText } from '../../harness/smtp.mjs';
import { User } from './user.mjs';

export const passwordReset = {
  name: 'forgot password: the reset mail goes out over SMTP with a link that works',
  async run(env) {
    const { bob, smtp } = env;
    const before = smtp.received.length;
    await bob.expect(200, 'POST', '/api/forgot-password', { email: bob.email });
    const mail = await waitFor('the reset mail at the SMTP listener', () =>
      smtp.received.slice(before).find((message) => message.to.includes(bob.email)),
    );
    const text = mailText(mail.raw);
    const escaped = env.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const link = new RegExp(`${escaped}/reset-password\\?token=([A-Za-z0-9_-]+)`).exec(text);
    assert(link, `no ${env.publicUrl}/reset-password link in the mail:\n${text.slice(0, 1500)}`);
    const page = await fetch(link[0]);
    assert(
      page.ok && (page.headers.get('content-type') ?? '').startsWith('text/html'),
      `the link answered ${page.status}`,
    );
    const visitor = new User(env, 'visitor');
    await visitor.expect(200, 'POST', '/api/reset-password', {
      token: link[1],
      newPassword: 'a brand new password',
    });
    // The reset signed bob out everywhere: the old session is gone, the new password works.
    const stale = await bob.request('GET', '/api/auth/user');
    assert(stale.status === 401, `bob's old session still works after the reset (${stale.status})`);
    bob.cookie = undefined;
    bob.password = 'a brand new password';
    await bob.expect(200, 'POST', '/api/login', { usernameOrEmail: bob.username, password: bob.password });
    return `mail to ${mail.to.join(', ')}, link ${link[0].slice(0, env.publicUrl.length + 30)}…`;
  },
};
