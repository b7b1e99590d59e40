// Live chat across two API instances: Redis carries the events between them.
import { waitFor } from '../../harness/wait.mjs';

export const chatAcrossApis = {
  name: 'a chat message posted through api #1 reaches a socket connected through api #2',
  async run(env) {
    const { alice, bob } = env;
    const onApi2 = await alice.connect(env.pinned[1]);
    const balanced = await alice.connect(env.publicUrl);
    env.sockets.push(onApi2, balanced);
    const content = `hello from api #1 at ${Date.now()}`;
    await bob.expect(201, 'POST', '/api/chat/messages', { content }, env.pinned[0]);
    for (const [label, socket] of [
      ['api #2', onApi2],
      ['the load-balanced /ws', balanced],
    ]) {
      await waitFor(
        `the chat message on the socket through ${label}`,
        () =>
          socket.frames.some((frame) => frame.type === 'chat_message' && frame.message?.content === content),
        5000,
      );
    }
  },
};
