/**
 * The real app in a child process (started by support/app-process.ts), as main.ts runs it, so a test can
 * SIGKILL it and start it again on the same database. Over IPC the parent asks for a write through the
 * app's own service and gets the result back.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { bootstrap } from '../../src/bootstrap.js';
import { PastesService } from '../../src/modules/pastes/pastes.service.js';
import { User } from '../../src/modules/users/entities/user.entity.js';

export interface ChildRequest {
  seq: number;
  action: 'reply';
  authorId: number;
  threadId: number;
  content: string;
}

export type ChildMessage =
  { ready: string } | { seq: number; result: unknown } | { seq: number; error: string };

const send = (message: ChildMessage): void => {
  process.send!(message);
};

const server = await bootstrap();
const pastes = server.app.get(PastesService);
const users = server.app.get(DataSource).getRepository(User);

process.on('message', (request: ChildRequest) => {
  void (async () => {
    try {
      const author = await users.findOneByOrFail({ id: request.authorId });
      const result = await pastes.createReply(author, request.threadId, { content: request.content });
      send({ seq: request.seq, result });
    } catch (error) {
      send({ seq: request.seq, error: error instanceof Error ? error.message : String(error) });
    }
  })();
});

send({ ready: server.url });
