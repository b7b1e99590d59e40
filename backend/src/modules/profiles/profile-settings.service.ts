import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { SETTINGS_MESSAGES, type updateProfileSchema } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { z } from 'zod';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { StoragePort } from '../../infra/storage/storage.port.js';
import { UploadsService } from '../uploads/uploads.service.js';
import type { User } from '../users/entities/user.entity.js';
import { lockAvatarUrl, setAvatarUrl, setProfileFields } from '../users/user-profiles.js';
import { UsersService } from '../users/users.service.js';

/** The editable profile fields, as validated: trimmed, an empty one null. */
export type ProfileFields = z.output<typeof updateProfileSchema>;

const USER_NOT_FOUND = 'User not found';

/** A member's own settings: profile fields and the avatar (uploaded with an uploads form, then claimed). */
@Injectable()
export class ProfileSettingsService {
  private readonly logger = new Logger('Profile');

  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: StoragePort,
    private readonly uploads: UploadsService,
    private readonly users: UsersService,
    private readonly events: EventsPort,
  ) {}

  /** Replaces first name, last name and bio (each absent or empty one is cleared). */
  async update(userId: number, fields: ProfileFields): Promise<User> {
    await setProfileFields(this.dataSource, userId, fields);
    await this.authorChanged(userId);
    return this.reload(userId);
  }

  /**
   * Makes an upload the member's avatar (only theirs, unswept, an image of at most 10 MB; else 400), copied
   * to its own key so the form can never change it. The previous avatar, if ours, is removed after commit.
   */
  async setAvatar(userId: number, avatarURL: string): Promise<User> {
    const key = this.storage.ownedKey(userId, avatarURL);
    if (key === null) throw new BadRequestException(SETTINGS_MESSAGES.avatarNotUploaded);
    let created: string | undefined;
    let previous: string | null;
    try {
      previous = await this.dataSource.transaction(async (manager) => {
        const row = await lockAvatarUrl(manager, userId);
        if (!row) throw new NotFoundException(USER_NOT_FOUND);
        if (row.avatarUrl !== null && this.storage.ownedKey(userId, row.avatarUrl) === key) {
          return row.avatarUrl;
        }
        const avatar = await this.uploads.claim(manager, userId, key);
        created = avatar.key;
        await setAvatarUrl(manager, userId, this.storage.publicUrl(avatar.key));
        return row.avatarUrl;
      });
    } catch (error) {
      if (created !== undefined) await this.uploads.remove(created, 'Unused avatar copy');
      throw error;
    }
    if (created === undefined) return this.reload(userId);
    await this.authorChanged(userId);
    const previousKey = previous === null ? null : this.storage.ownedKey(userId, previous);
    if (previousKey !== null) await this.uploads.remove(previousKey, 'Old avatar');
    return this.reload(userId);
  }

  /**
   * The member's name, avatar and bio show on their profile and on every page that shows them (their
   * pastes, the threads they replied in, the lists that name them): those change, on every instance.
   */
  private authorChanged(userId: number): Promise<void> {
    return announcePagesChanged(this.events, { profiles: [userId], members: [userId] }, this.logger);
  }

  private async reload(userId: number): Promise<User> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFoundException(USER_NOT_FOUND);
    return user;
  }
}
