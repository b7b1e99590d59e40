import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  isPremiumRankName,
  SETTINGS_MESSAGES,
  UPLOAD_URL_TTL_SECONDS,
  type updateProfileSchema,
  type UploadUrl,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { z } from 'zod';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { StoragePort } from '../../infra/storage/storage.port.js';
import { User } from './entities/user.entity.js';

/** The editable profile fields, as validated: trimmed, an empty one null. */
export type ProfileFields = z.output<typeof updateProfileSchema>;

const USER_NOT_FOUND = 'User not found';

/**
 * A member's own settings (SPEC §2 profile settings, ranks): profile fields, the active premium grade,
 * and the avatar, uploaded to the storage port and then claimed.
 */
@Injectable()
export class ProfileService {
  private readonly logger = new Logger('Profile');

  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: StoragePort,
    private readonly events: EventsPort,
  ) {}

  /** Replaces first name, last name and bio (each absent or empty one is cleared). */
  async update(userId: number, fields: ProfileFields): Promise<User> {
    await this.dataSource
      .getRepository(User)
      .update({ id: userId }, { firstName: fields.firstName, lastName: fields.lastName, bio: fields.bio });
    await this.authorChanged();
    return this.reload(userId);
  }

  /**
   * Makes one of the member's owned premium grades the active rank, or (null) goes back to the reputation
   * rank. 400 `Unknown rank` for a name that is no grade, `You do not own this rank` for one not owned.
   */
  async selectRank(userId: number, rankName: string | null): Promise<User> {
    if (rankName !== null && !isPremiumRankName(rankName)) {
      throw new BadRequestException(SETTINGS_MESSAGES.unknownRank);
    }
    // Ownership is checked in the same statement, so a grade revoked meanwhile cannot become active.
    const rows: Array<{ id: number }> = await this.dataSource.query(
      `WITH u AS (
         UPDATE users SET active_premium_rank = $2, updated_at = now()
         WHERE id = $1 AND ($2::text IS NULL OR $2::text = ANY(owned_premium_ranks))
         RETURNING id)
       SELECT id FROM u`,
      [userId, rankName],
    );
    if (rows.length === 0) throw new BadRequestException(SETTINGS_MESSAGES.rankNotOwned);
    await this.authorChanged();
    return this.reload(userId);
  }

  /**
   * A presigned address where the member PUTs a new avatar file, valid UPLOAD_URL_TTL_SECONDS. Noted as
   * pending: unless claimed as the avatar, the uploads sweep deletes the file later (UploadsSweeper).
   */
  async uploadUrl(userId: number): Promise<UploadUrl> {
    const { uploadURL, key } = await this.storage.presignUpload(userId, UPLOAD_URL_TTL_SECONDS);
    await this.dataSource.query('INSERT INTO pending_uploads (key, user_id) VALUES ($1, $2)', [key, userId]);
    return { uploadURL };
  }

  /**
   * Makes an uploaded object the member's avatar: only an object of our storage that this member
   * uploaded, present and an image (else 400). The previous avatar object, if it was one of theirs in our
   * storage, is removed once the change is committed.
   */
  async setAvatar(userId: number, avatarURL: string): Promise<User> {
    const key = this.storage.ownedKey(userId, avatarURL);
    if (key === null) throw new BadRequestException(SETTINGS_MESSAGES.avatarNotUploaded);
    const url = this.storage.publicUrl(key);
    const previous = await this.dataSource.transaction(async (manager) => {
      // Claimed: the uploads sweep no longer sees it. Were the sweep deleting it right now, this waits for
      // its transaction, and the file is then found gone below.
      await manager.query('DELETE FROM pending_uploads WHERE key = $1', [key]);
      if ((await this.storage.stat(key)) === null) {
        throw new BadRequestException(SETTINGS_MESSAGES.avatarNotUploaded);
      }
      const [row]: Array<{ avatar_url: string | null }> = await manager.query(
        'SELECT avatar_url FROM users WHERE id = $1 FOR UPDATE',
        [userId],
      );
      if (!row) throw new NotFoundException(USER_NOT_FOUND);
      await manager.query('UPDATE users SET avatar_url = $2, updated_at = now() WHERE id = $1', [
        userId,
        url,
      ]);
      return row.avatar_url;
    });
    await this.authorChanged();
    const previousKey = previous === null ? null : this.storage.ownedKey(userId, previous);
    if (previousKey !== null && previousKey !== key) {
      await this.storage
        .delete(previousKey)
        .catch((error: unknown) =>
          this.logger.warn(
            `Old avatar ${previousKey} not deleted: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    }
    return this.reload(userId);
  }

  /** The member's name, avatar and rank show on every page they wrote on: all of them change. */
  private authorChanged(): Promise<void> {
    return announcePagesChanged(this.events, { all: true }, this.logger);
  }

  private async reload(userId: number): Promise<User> {
    const user = await this.dataSource.getRepository(User).findOneBy({ id: userId });
    if (!user) throw new NotFoundException(USER_NOT_FOUND);
    return user;
  }
}
