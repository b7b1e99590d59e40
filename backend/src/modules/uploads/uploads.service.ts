import { BadRequestException, Injectable, Logger } from '@nestjs/common';
import { SETTINGS_MESSAGES, UPLOAD_URL_TTL_SECONDS, type UploadTicket } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { StoragePort, type StoredObject } from '../../infra/storage/storage.port.js';

/**
 * Uploads (SPEC §7 upload flow): the forms handed out (`pending_uploads`, this module's table), the claim
 * that makes one of them a member's file, and the removal of objects no longer used. The sweep of
 * unclaimed uploads is UploadsSweeper; the local storage adapter's own HTTP side, LocalUploadsController.
 */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger('Uploads');

  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: StoragePort,
  ) {}

  /**
   * A presigned form with which the member uploads a new file, valid UPLOAD_URL_TTL_SECONDS. Noted as
   * pending: the uploads sweep deletes whatever the form uploaded once it is well expired
   * (UploadsSweeper), claimed or not (a claim copies the upload elsewhere).
   */
  async ticket(userId: number): Promise<UploadTicket> {
    const { ticket, key } = await this.storage.presignUpload(userId, UPLOAD_URL_TTL_SECONDS);
    await this.dataSource.query('INSERT INTO pending_uploads (key, user_id) VALUES ($1, $2)', [key, userId]);
    return ticket;
  }

  /**
   * In the caller's transaction: claims the upload at `key` for the member, copying it to a key of its own
   * (StoragePort.claim), so the upload form, valid a while longer, can never change it. Only an upload
   * handed out to this member and not swept yet, present and an image of at most 10 MB: else 400
   * `SETTINGS_MESSAGES.avatarNotUploaded`. Its pending row is locked until the caller commits: the sweep
   * skips it meanwhile (were the sweep deleting it right now, this waits for it and then finds no row).
   * The row stays: the form still works until it expires, and the sweep removes what it uploads.
   */
  async claim(manager: EntityManager, userId: number, key: string): Promise<StoredObject> {
    const pending: unknown[] = await manager.query(
      'SELECT 1 FROM pending_uploads WHERE key = $1 AND user_id = $2 FOR UPDATE',
      [key, userId],
    );
    if (pending.length === 0) throw new BadRequestException(SETTINGS_MESSAGES.avatarNotUploaded);
    const claimed = await this.storage.claim(key);
    if (claimed === null) throw new BadRequestException(SETTINGS_MESSAGES.avatarNotUploaded);
    return claimed;
  }

  /** Deletes a stored object no longer used; a failure is logged (`what` names the object), not thrown. */
  async remove(key: string, what: string): Promise<void> {
    await this.storage
      .delete(key)
      .catch((error: unknown) =>
        this.logger.warn(
          `${what} ${key} not deleted: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }
}
