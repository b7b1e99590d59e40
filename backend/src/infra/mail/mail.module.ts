import { type DynamicModule, Global, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { MailProcessor } from './mail.processor.js';
import { LinkMailRouter, LinkMailWriter, MailService } from './mail.service.js';
import { QueuedMailService } from './queued-mail.service.js';

export interface MailModuleOptions {
  /** Who writes each kind of link mail (`LinkMail.kind`): the feature that owns its token. */
  links: Record<string, Type<LinkMailWriter>>;
  /** The modules the writers need. */
  imports?: ModuleMetadata['imports'];
}

/**
 * MailService everywhere; its processor runs wherever processors run, with the link mails' writers the
 * app gives it (they mint the tokens). It sends what it is given.
 */
@Global()
@Module({})
export class MailModule {
  static forRoot({ links, imports = [] }: MailModuleOptions): DynamicModule {
    const writers = [...new Set(Object.values(links))];
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
        MailProcessor,
      ],
      exports: [MailService, LinkMailWriter],
    };
  }
}
