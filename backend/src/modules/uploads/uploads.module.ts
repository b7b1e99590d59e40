import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../../config/config.js';
import { UsersModule } from '../users/users.module.js';
import { LocalUploadsController } from './local-uploads.controller.js';
import { UploadAddressController } from './upload-address.controller.js';
import { UploadsSweepModule } from './uploads-sweep.module.js';
import { UploadsController } from './uploads.controller.js';
import { UploadsService } from './uploads.service.js';

/**
 * Uploads: the forms members upload files with (`POST /api/objects/upload`), the claim that makes an
 * upload a member's file (UploadsService.claim, in the claimer's transaction), the sweep of unclaimed
 * ones, the presigned PUT addresses under `/api/uploads` (either storage) and, with local storage (no
 * S3_BUCKET), the storage's own HTTP side under `/api/uploads`.
 * Registered once, by the app module; global, so the modules that claim uploads (the profile's avatar)
 * reach UploadsService without importing it again.
 */
@Module({})
export class UploadsModule {
  static forRoot(config: Pick<AppConfig, 'storage'>): DynamicModule {
    return {
      module: UploadsModule,
      global: true,
      imports: [UsersModule, UploadsSweepModule],
      controllers: [
        UploadsController,
        UploadAddressController,
        ...(config.storage.mode === 'local' ? [LocalUploadsController] : []),
      ],
      providers: [UploadsService],
      exports: [UploadsService],
    };
  }
}
