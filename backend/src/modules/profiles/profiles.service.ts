import { Injectable, NotFoundException } from '@nestjs/common';
import { POST_MESSAGES, type UserProfile, type UsersPage } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { PastesService } from '../pastes/pastes.service.js';
import { directoryPage, publicProfile } from '../users/user-profiles.js';

/** The members, as others see them: the directory and public profiles, public fields only. */
@Injectable()
export class ProfilesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pastes: PastesService,
  ) {}

  /**
   * The users directory: members by reputation (highest first, then newest), keyset-paged 50 at a time;
   * `filter` keeps those whose username contains it, in any letter case (the trigram index serves it).
   */
  directory(filter: string, cursor?: string): Promise<UsersPage> {
    return directoryPage(this.dataSource, filter, cursor);
  }

  /**
   * A member's profile; `own` (the member reads their own) lists their unlisted and private pastes too.
   * `threadCount` counts listed pastes only, whoever reads it.
   */
  async profile(userId: number, { own = false } = {}): Promise<UserProfile> {
    const user = await publicProfile(this.dataSource, userId);
    if (!user) throw new NotFoundException(POST_MESSAGES.userNotFound);
    const recentThreads = await this.pastes.recentByAuthor(userId, { own });
    return { ...user, recentThreads };
  }
}
