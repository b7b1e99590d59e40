import { type DynamicModule, Global, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { MailProcessor } from './mail.processor.js';
import {
  LinkMailRouter,
  LinkMailWriter,
  MailJobRouter,
  type MailJobRunner,
  MailService,
} from './mail.service.js';
import { QueuedMailService } from './queued-mail.service.js';

export interface MailModuleOptions {
  /** Who writes each kind of link mail (`LinkMail.kind`): the feature that owns its token. */
  links: Record<string, Type<LinkMailWriter>>;
  /**
   * The features' own jobs on the mail queue, by job name: runners provided (and exported) by a module of
   * `imports`.
   */
  jobs?: Record<string, Type<MailJobRunner>>;
  /** The modules the writers need, and those that provide the job runners. */
  imports?: ModuleMetadata['imports'];
}

/**
 * MailService everywhere; its processor runs wherever processors run, with the link mails' writers the
 * app gives it (they mint the tokens). It sends what it is given.
 */
@Global()
@Module({})
export class MailModule {
  static forRoot({ links, jobs = {}, imports = [] }: MailModuleOptions): DynamicModule {
    const writers = [...new Set(Object.values(links))];
    const runners = [...new Set(Object.values(jobs))];
    return {
      module: MailModule,
      imports,
      providers: [
        QueuedMailService,
        { provide: MailService, useExisting: QueuedMailService },
        ...writers,
        {
          provide: LinkMailWriter,
          useFactory: (...instances: LinkMailWriter[]) =>
            new LinkMailRouter(
              Object.fromEntries(
                Object.entries(links).map(([kind, writer]) => [kind, instances[writers.indexOf(writer)]!]),
              ),
            ),
          inject: writers,
        },
        {
          provide: MailJobRouter,
          useFactory: (...instances: MailJobRunner[]) =>
            new MailJobRouter(
              Object.fromEntries(
                Object.entries(jobs).map(([name, runner]) => [name, instances[runners.indexOf(runner)]!]),
              ),
            ),
          inject: runners,
        },
        MailProcessor,
      ],
      exports: [MailService, LinkMailWriter],
    };
  }
}
