import { createHash, randomBytes } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  Logger,
} from '@nestjs/common';
import { OWNER_SETUP_MESSAGES, PAGES } from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { UsersService } from '../users/users.service.js';

/** Crockford's base32: no I, L, O or U, so a code read from a log is typed back without doubt. */
const SETUP_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 16 characters of 5 bits: 80 random bits, shown as four groups of four. */
const SETUP_CODE_LENGTH = 16;
/** Setup codes kept at once (each start of an API instance, and each CLI call, adds one). */
const SETUP_CODES_KEPT = 10;
/** Serialises the owner's grant: one owner at most, whoever asks at the same time. */
const OWNER_LOCK = "SELECT pg_advisory_xact_lock(hashtext('termpaste.owner'))";

/** A new setup code, `ABCD-EFGH-JKMN-PQRS`. */
export function newSetupCode(): string {
  // 256 is a multiple of 32: `byte & 31` picks every character with the same chance.
  const chars = [...randomBytes(SETUP_CODE_LENGTH)].map((byte) => SETUP_CODE_ALPHABET[byte & 31]);
  return chars.join('').replace(/(.{4})(?!$)/g, '$1-');
}

/** The code as stored (hashed): upper case, without spaces or dashes. */
export function normalizeSetupCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

export function setupCodeHash(code: string): string {
  return createHash('sha256').update(normalizeSetupCode(code)).digest('hex');
}

/** What issueSetupCode found, for the CLI to report. */
export type SetupCodeResult =
  | { issued: true; code: string }
  | { issued: false; reason: 'owner'; owner: string }
  | { issued: false; reason: 'owner-email'; ownerEmail: string };

/**
 * Who owns the forum: never the first account for being first. With OWNER_EMAIL, that account once
 * verified; without, a verified member entering a one-time setup code (start-up log or `npm run cli --
 * setup-code`, stored hashed). The first right code makes its member owner and voids the others.
 */
@Injectable()
export class OwnerService {
  private readonly logger = new Logger('Owner');

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'ownerEmail' | 'publicUrl'>,
  ) {}

  /** The start-up log's line: the owner, the OWNER_EMAIL rule, or a new setup code and where to enter it. */
  async startupLine(): Promise<string> {
    const result = await this.issueSetupCode();
    if (!result.issued) {
      return result.reason === 'owner'
        ? `Owner: ${result.owner}`
        : `Owner: the account that registers with OWNER_EMAIL (${result.ownerEmail}) becomes owner and ` +
            'admin once it verifies that address';
    }
    return (
      `Owner: none yet. Setup code ${result.code}: sign in with a verified account and enter it at ` +
      `${this.config.publicUrl}${PAGES.ownerSetup} to become the owner (it works once; ` +
      '`npm run admin -- setup-code` prints another)'
    );
  }

  /** A new setup code, unless there is an owner or OWNER_EMAIL decides. Older codes stay valid. */
  async issueSetupCode(): Promise<SetupCodeResult> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(OWNER_LOCK);
      const owner = await this.users.ownerName(manager);
      if (owner !== undefined) return { issued: false, reason: 'owner', owner };
      if (this.config.ownerEmail) {
        return { issued: false, reason: 'owner-email', ownerEmail: this.config.ownerEmail };
      }
      const code = newSetupCode();
      await manager.query('INSERT INTO owner_setup_codes (code_hash) VALUES ($1)', [setupCodeHash(code)]);
      await manager.query(
        `DELETE FROM owner_setup_codes WHERE id NOT IN
           (SELECT id FROM owner_setup_codes ORDER BY id DESC LIMIT $1)`,
        [SETUP_CODES_KEPT],
      );
      return { issued: true, code };
    });
  }

  /**
   * At verification, in its transaction: the member whose verified address is OWNER_EMAIL becomes owner
   * and admin, unless there is an owner already (one made before OWNER_EMAIL was set keeps the title).
   */
  async grantIfOwnerEmail(manager: EntityManager, userId: number, email: string): Promise<boolean> {
    if (!this.config.ownerEmail || email.toLowerCase() !== this.config.ownerEmail) return false;
    await manager.query(OWNER_LOCK);
    if ((await this.users.ownerName(manager)) !== undefined) return false;
    await this.users.makeOwner(manager, userId);
    this.logger.log(`Owner: the account with OWNER_EMAIL (${this.config.ownerEmail}) verified it`);
    return true;
  }

  /**
   * The member (signed in) claims the forum with a setup code: 409 when there is an owner or OWNER_EMAIL
   * decides, 403 while their address is not verified, 400 for a wrong code. Codes are single use: the
   * right one deletes them all.
   */
  async claim(userId: number, code: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(OWNER_LOCK);
      if ((await this.users.ownerName(manager)) !== undefined) {
        throw new ConflictException(OWNER_SETUP_MESSAGES.ownerExists);
      }
      if (this.config.ownerEmail) throw new ConflictException(OWNER_SETUP_MESSAGES.ownerEmailSet);
      const user = await this.users.lockById(manager, userId);
      if (!user || user.emailVerifiedAt === null)
        throw new ForbiddenException(OWNER_SETUP_MESSAGES.verifyFirst);
      const [used]: [unknown[], number] = await manager.query(
        'DELETE FROM owner_setup_codes WHERE code_hash = $1 RETURNING id',
        [setupCodeHash(code)],
      );
      if (used[0] === undefined) throw new BadRequestException(OWNER_SETUP_MESSAGES.invalidCode);
      await manager.query('DELETE FROM owner_setup_codes');
      await this.users.makeOwner(manager, userId);
      this.logger.log(`Owner: ${user.username} claimed the forum with a setup code`);
    });
  }
}
