import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { ForbiddenException } from '@nestjs/common';
import {
  API,
  SETTINGS_MESSAGES,
  type UploadAddressQuery,
  uploadAddressQuerySchema,
} from '@termpaste/contracts';
import { isPendingKey } from '../../infra/storage/object-keys.js';

const DIGITS = /^\d{1,12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
/** The query an address carries: exactly these parameters, each once. */
const PARAMETERS = Object.keys(uploadAddressQuerySchema.shape);

/**
 * Presigned PUT addresses: `/api/uploads/<pending key>?expires=…&signature=…` (HMAC of method, key and
 * expiry, under a key apart from the forms', so a form's signature never signs a PUT). The backend takes
 * the PUT and streams it into the storage.
 */
export class UploadAddresses {
  private readonly signingKey: Buffer;
  private readonly base: string;

  constructor(publicUrl: string, secret: string) {
    this.base = `${publicUrl}${API.uploads}/`;
    this.signingKey = Buffer.from(
      hkdfSync('sha256', secret, 'termpaste', 'termpaste upload PUT address signing', 32),
    );
  }

  /** The address to PUT the pending object `key` to, valid `expiresInSeconds`. */
  address(key: string, expiresInSeconds: number): string {
    const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
    return `${this.base}${key}?expires=${expires}&signature=${this.sign(key, expires)}`;
  }

  /**
   * Checks a PUT's key and query (`query` as parsed, `names` every parameter name the request carries):
   * 403 `Invalid upload address` unless the key is a pending one and the query is exactly `expires` and
   * our `signature` for them, each once, then 403 `Request has expired` past its expiry.
   */
  verify(key: string, { expires, signature }: UploadAddressQuery, names: readonly string[]): void {
    if (
      !isPendingKey(key) ||
      names.length !== PARAMETERS.length ||
      !PARAMETERS.every((name) => names.includes(name)) ||
      expires === undefined ||
      signature === undefined ||
      !DIGITS.test(expires) ||
      !SIGNATURE.test(signature) ||
      !timingSafeEqual(Buffer.from(this.sign(key, Number(expires))), Buffer.from(signature))
    ) {
      throw new ForbiddenException(SETTINGS_MESSAGES.uploadInvalid);
    }
    if (Number(expires) < Math.floor(Date.now() / 1000)) {
      throw new ForbiddenException(SETTINGS_MESSAGES.uploadExpired);
    }
  }

  private sign(key: string, expires: number): string {
    return createHmac('sha256', this.signingKey).update(`PUT\n${key}\n${expires}`).digest('base64url');
  }
}
