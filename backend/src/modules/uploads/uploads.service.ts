import type { Readable } from 'node:stream';
import { BadRequestException, ConflictException, Injectable, Logger } from '@nestjs/common';
import { SETTINGS_MESSAGES, UPLOAD_URL_TTL_SECONDS, type UploadTicket } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { UPLOAD_ALREADY_DONE } from '../../infra/storage/local.storage.js';
import { StoragePort, type StoredObject } from '../../infra/storage/storage.port.js';
import { UploadAddresses } from './upload-address.js';

/**
 * Uploads: the forms handed out (`pending_uploads`), the claim that makes one a member's file, and removal of
 * unused objects.
 */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger('Uploads');
  /** The presigned PUT addresses, the same for both storages. */
  readonly addresses: UploadAddresses;

  constructor(
    private readonly dataSource: DataSource,
    private readonly storage: StoragePort,
    @InjectConfig() config: Pick<AppConfig, 'publicUrl' | 'sessionSecret'>,
  ) {
    this.addresses = new UploadAddresses(config.publicUrl, config.sessionSecret);
  }

  /**
   * Where the member uploads a new file, valid UPLOAD_URL_TTL_SECONDS: a PUT address and a form for one
   * new pending key, noted so the sweep deletes whatever lands there, claimed or not.
   */
  async ticket(userId: number): Promise<UploadTicket> {
    const { ticket, key } = await this.storage.presignUpload(userId, UPLOAD_URL_TTL_SECONDS);
    await this.dataSource.query('INSERT INTO pending_uploads (key, user_id) VALUES ($1, $2)', [key, userId]);
    return {
      uploadURL: this.addresses.address(key, UPLOAD_URL_TTL_SECONDS),
      method: 'PUT',
      form: { url: ticket.uploadURL, method: ticket.method, fields: ticket.fields },
      objectURL: ticket.objectURL,
    };
  }

  /**
   * Stores a PUT's body, once per address: the address is taken first (409 if used or running) and given
   * back when the storage refuses or the client stops, so a failed upload may be retried; a stored one never.
   */
  async put(key: string, source: Readable, size: number): Promise<StoredObject> {
    const [, taken] = (await this.dataSource.query(
      'UPDATE pending_uploads SET put_at = now() WHERE key = $1 AND put_at IS NULL',
      [key],
    )) as [unknown, number];
    if (taken !== 1) throw new ConflictException(UPLOAD_ALREADY_DONE);
    try {
      return await this.storage.put(key, source, size);
    } catch (error) {
      await this.dataSource.query('UPDATE pending_uploads SET put_at = NULL WHERE key = $1', [key]);
      throw error;
    }
  }

  /**
   * In the caller's transaction, claims the upload at `key` by copying it to its own key, so the form can
   * never change it. Only this member's unswept image of at most 10 MB (else 400). Its row stays locked
   * until commit, so the sweep skips it meanwhile.
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
