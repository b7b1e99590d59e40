import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { SigningService } from './signing.service.js';
import { SshKeysController } from './ssh-keys.controller.js';

/** Members' SSH public keys, and the check of a paste's SSH signature (the pastes module stores it through here). */
@Module({
  imports: [UsersModule],
  controllers: [SshKeysController],
  providers: [SigningService],
  exports: [SigningService],
})
export class SigningModule {}
