import { Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { OwnerController } from './owner.controller.js';
import { OwnerService } from './owner.service.js';

/**
 * The owner: granted when OWNER_EMAIL's address is verified, or claimed with the setup code. The start-up
 * log says who the owner is, or how to become it.
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
