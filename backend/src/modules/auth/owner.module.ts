import { Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { OwnerController } from './owner.controller.js';
import { OwnerService } from './owner.service.js';

/**
 * The owner (issue 13): granted at verification of OWNER_EMAIL's address, or claimed with the setup code.
 * The API process says in its start-up log who the owner is, or how to become it (with a new code).
 */
@Module({
  imports: [UsersModule],
  controllers: [OwnerController],
  providers: [OwnerService],
  exports: [OwnerService],
})
export class OwnerModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('Users');

  constructor(private readonly owners: OwnerService) {}

  async onApplicationBootstrap(): Promise<void> {
    this.logger.log(await this.owners.startupLine());
  }
}
