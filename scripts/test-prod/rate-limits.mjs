// Rate limits behind a proxy count per client address, the one nginx saw, not the one a client claims.
import { assert } from '../../harness/wait.mjs';
import { User, newClientAddress } from './user.mjs';

export const rateLimits = {
  name: 'behind nginx (TRUST_PROXY=1) rate limits count per client address; a forged X-Forwarded-For changes nothing',
  async run(env) {
    // Registrations: 5 an hour per address by default. One machine registers 5 accounts, the 6th is
    // refused; claiming another address in X-Forwarded-For does not help (nginx appends the real one,
    // the one proxy trusted); a member on another machine is not held back.
    const shared = newClientAddress();
    const crowd = Array.from({ length: 6 }, (_, i) => new User(env, `crowd${i}`));
    for (const member of crowd) member.address = shared;
    for (const member of crowd.slice(0, 5)) await member.register();
    const sixth = crowd[5];
    const body = { username: sixth.username, email: sixth.email, password: sixth.password };
    const refused = await sixth.request('POST', '/api/register', body);
    assert(
      refused.status === 429 &&
        /^Too many attempts\. Try again in \d+ seconds\.$/.test(refused.json?.message),
      `the 6th registration from one address answered ${refused.status}: ${refused.text.slice(0, 200)}`,
    );
    const forged = await sixth.request('POST', '/api/register', body, undefined, {
      'X-Forwarded-For': '203.0.113.7',
    });
    assert(forged.status === 429, `a forged X-Forwarded-For got past the limit: ${forged.status}`);
    await new User(env, 'elsewhere').register();
    return `5 registrations from ${shared}, the 6th refused (forged address too); another address registers`;
  },
};
