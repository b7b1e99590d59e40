// The queue dashboard behind nginx: for admins only.
import { assert } from '../../harness/wait.mjs';

export const adminOnly = {
  name: 'the queue dashboard (/api/admin/queues) is for admins only; /api/docs answers',
  async run(env) {
    const { alice, mentioned } = env;
    const asAdmin = await alice.request('GET', '/api/admin/queues');
    assert(asAdmin.status === 200, `an admin got ${asAdmin.status} from /api/admin/queues`);
    const asMember = await mentioned[0].request('GET', '/api/admin/queues');
    assert([401, 403].includes(asMember.status), `a member got ${asMember.status} from /api/admin/queues`);
    const docs = await fetch(`${env.publicUrl}/api/docs`);
    assert(docs.ok, `/api/docs answered ${docs.status}`);
  },
};
