import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../../config/config.js';
import { UsersModule } from '../users/users.module.js';
import { LocalUploadsController } from './local-uploads.controller.js';
import { UploadAddressController } from './upload-address.controller.js';
import { UploadsSweepModule } from './uploads-sweep.module.js';
import { UploadsController } from './uploads.controller.js';
import { UploadsService } from './uploads.service.js';

/**
 * Uploads: forms handed out, the claim, the sweep, the presigned PUTs and, with local storage, its HTTP
 * side under `/api/uploads`. Global, so modules that claim uploads reach UploadsService directly.
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
