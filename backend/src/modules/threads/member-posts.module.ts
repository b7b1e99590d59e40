import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { MemberPostsService } from './member-posts.js';

/** What the account module needs of the forum to delete a member: MemberPostsService alone. */
@Module({ imports: [UsersModule], providers: [MemberPostsService], exports: [MemberPostsService] })
export class MemberPostsModule {}
