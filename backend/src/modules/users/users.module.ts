import { Module } from '@nestjs/common';
import { UserAdminService } from './user-admin.service.js';
import { UsersService } from './users.service.js';

/**
 * The account record. A module whose routes use SessionGuard imports this one (the guard loads the
 * signed-in user through UsersService); one that ends sessions imports auth's SessionsModule.
 */
@Module({
  providers: [UsersService, UserAdminService],
  exports: [UsersService, UserAdminService],
})
export class UsersModule {}
