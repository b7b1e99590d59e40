import { type INestApplicationContext, Injectable, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { QueueModule } from '../../src/infra/queue/queue.module.js';
import type { QueueModuleOptions } from '../../src/infra/queue/queue.options.js';
import { type QueueJob, QueueProcessor, QueuePort } from '../../src/infra/queue/queue.port.js';
import { CapturingLogger } from './capturing-logger.js';

export interface QueueContext {
  app: INestApplicationContext;
  queue: QueuePort;
  close(): Promise<void>;
}

/** The entry module of a queue-only app: QueueModule plus the test's processors. */
class QueueTestModule {}

/**
 * A Nest application with only QueueModule and the given processors (no HTTP, no database), initialised
 * (init and bootstrap hooks have run). Several contexts in one test share `logs` (Nest's logger is global).
 */
export async function startQueueContext(
  options: QueueModuleOptions,
  processors: Type[],
  logs: CapturingLogger = new CapturingLogger(),
): Promise<QueueContext> {
  const app = await NestFactory.createApplicationContext(
    { module: QueueTestModule, imports: [QueueModule.forRoot(options)], providers: processors },
    { logger: logs, abortOnError: false },
  );
  return { app, queue: app.get(QueuePort), close: () => app.close() };
}

/** A processor class for `queue` that hands each job to `handle` (a class per call, as Nest wants). */
export function processorFor(queue: string, handle: (job: QueueJob) => Promise<void> | void): Type {
  @Injectable()
  @QueueProcessor(queue)
  class TestProcessor implements QueueProcessor {
    async process(job: QueueJob): Promise<void> {
      await handle(job);
    }
  }
  return TestProcessor;
}
