import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from '../../config/config.js';
import { LocalStorage } from './local.storage.js';
import { StoragePort } from './storage.port.js';

/**
 * The storage port for every module: S3 with S3_BUCKET, else local disk, whose forms and avatars
 * `/api/uploads` serves.
 */
@Global()
@Module({})
export class StorageModule {
  static forRoot(config: Pick<AppConfig, 'storage' | 'publicUrl' | 'sessionSecret'>): DynamicModule {
    if (config.storage.mode === 's3') {
      const s3 = config.storage;
      return {
        module: StorageModule,
        providers: [
          {
            provide: StoragePort,
            // Loaded only in S3 mode: the embedded default never pays for the AWS SDK.
            useFactory: async () => new (await import('./s3.storage.js')).S3Storage(s3),
          },
        ],
        exports: [StoragePort],
      };
    }
    const storage = new LocalStorage({
      dir: config.storage.dir,
      publicUrl: config.publicUrl,
      secret: config.sessionSecret,
    });
    return {
      module: StorageModule,
      providers: [
        { provide: LocalStorage, useValue: storage },
        { provide: StoragePort, useValue: storage },
      ],
      // LocalStorage for its HTTP side (the uploads module's LocalUploadsController).
      exports: [StoragePort, LocalStorage],
    };
  }
}
