import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { UserPostsService } from './user-posts.js';

/** What the account module needs of the forum to delete a member: UserPostsService alone. */
@Module({ imports: [UsersModule], providers: [UserPostsService], exports: [UserPostsService] })
export class UserPostsModule {}
