import {
  BadRequestException,
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import {
  type PasteSignature,
  POST_MESSAGES,
  SIGNATURE_MESSAGES,
  SSH_KEY_MESSAGES,
  type SshKey as SshKeyView,
  SSH_KEYS_PER_USER_MAX,
} from '@termpaste/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { violatedUniqueConstraint } from '../../common/unique-violation.js';
import { type Row, selectColumns } from '../../infra/database/columns.js';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { UsersService } from '../users/users.service.js';
import { SshKey } from './entities/ssh-key.entity.js';
import type { PasteSignatureRow } from './signing-sql.js';
import { parseKeyLine, parseSignature, SshFormatError, verifySignature } from './sshsig.js';

const KEY_PROPERTIES = ['id', 'title', 'keyType', 'fingerprint', 'publicKey', 'createdAt'] as const;
const KEY_SELECT = selectColumns(SshKey, 'k', KEY_PROPERTIES);
type KeyRow = Row<SshKey, (typeof KEY_PROPERTIES)[number]>;

const toKeyView = ({ keyType, createdAt, ...row }: KeyRow): SshKeyView => ({
  id: row.id,
  title: row.title,
  type: keyType,
  fingerprint: row.fingerprint,
  publicKey: row.publicKey,
  createdAt: createdAt.toISOString(),
});

/** The first key of the advisory lock that serializes one member's key additions (their count). */
const ADD_LOCK = 0x7470_0005;

/** A paste's signature once checked: what is stored beside the paste. */
export interface CheckedSignature {
  armoured: string;
  fingerprint: string;
  keyType: string;
}

/** The signature a paste's page shows (pasteSignatureJson's row), or null for an unsigned paste. */
export function toPasteSignature(row: PasteSignatureRow | null): PasteSignature | null {
  if (!row) return null;
  return {
    state: row.keyTitle === null ? 'key-removed' : 'verified',
    fingerprint: row.fingerprint,
    keyType: row.keyType,
    keyTitle: row.keyTitle,
  };
}

/** Members' SSH public keys, and the check of a paste's SSH signature against its author's keys. */
@Injectable()
export class SigningService {
  private readonly logger = new Logger('Signing');

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly events: EventsPort,
  ) {}

  /** The member's keys, oldest first. */
  async list(userId: number): Promise<SshKeyView[]> {
    const rows: KeyRow[] = await this.dataSource.query(
      `SELECT ${KEY_SELECT} FROM ssh_keys k WHERE k.user_id = $1 ORDER BY k.created_at, k.id`,
      [userId],
    );
    return rows.map(toKeyView);
  }

  /**
   * Adds a key line (400 with what is wrong with it; 409 beyond SSH_KEYS_PER_USER_MAX or for a key the
   * member already lists). The title defaults to the key's comment, else its type.
   */
  async add(userId: number, body: { key: string; title?: string }): Promise<SshKeyView> {
    let line;
    try {
      line = parseKeyLine(body.key);
    } catch (error) {
      if (error instanceof SshFormatError) throw new BadRequestException(error.message);
      throw error;
    }
    const title = body.title || line.comment.slice(0, 64).trim() || line.type;
    let row: KeyRow;
    try {
      row = await this.dataSource.transaction(async (manager) => {
        await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [ADD_LOCK, userId]);
        const [{ count }]: Array<{ count: number }> = await manager.query(
          'SELECT count(*)::int AS count FROM ssh_keys WHERE user_id = $1',
          [userId],
        );
        if (count >= SSH_KEYS_PER_USER_MAX) throw new ConflictException(SSH_KEY_MESSAGES.tooMany);
        const [inserted]: KeyRow[] = await manager.query(
          `INSERT INTO ssh_keys AS k (user_id, title, key_type, public_key, fingerprint)
           VALUES ($1, $2, $3, $4, $5) RETURNING ${KEY_SELECT}`,
          [userId, title, line.type, line.line, line.fingerprint],
        );
        return inserted!;
      });
    } catch (error) {
      if (violatedUniqueConstraint(error) === 'ssh_keys_user_fingerprint_key') {
        throw new ConflictException(SSH_KEY_MESSAGES.duplicate);
      }
      throw error;
    }
    // A paste signed with this key before (then removed) shows VERIFIED again.
    await this.keysChanged(userId);
    return toKeyView(row);
  }

  /** Deletes the member's key `id`; another member's, or none: 404. Their pastes signed with it then warn. */
  async remove(userId: number, id: number): Promise<void> {
    const rows: unknown[] = await this.dataSource.query(
      'WITH gone AS (DELETE FROM ssh_keys WHERE id = $1 AND user_id = $2 RETURNING id) SELECT id FROM gone',
      [id, userId],
    );
    if (rows.length === 0) throw new NotFoundException(SSH_KEY_MESSAGES.notFound);
    await this.keysChanged(userId);
  }

  /** The pages of the member's pastes (cached for everyone) show their signatures' state anew. */
  private keysChanged(userId: number): Promise<void> {
    return announcePagesChanged(this.events, { members: [userId] }, this.logger);
  }

  /**
   * `GET /api/users/{id}/keys`: the member's keys as `authorized_keys` lines (`type base64 title`),
   * oldest first, one a line; 404 for no such member.
   */
  async authorizedKeys(userId: number): Promise<string> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFoundException(POST_MESSAGES.userNotFound);
    const rows: Array<{ publicKey: string }> = await this.dataSource.query(
      'SELECT public_key AS "publicKey" FROM ssh_keys WHERE user_id = $1 ORDER BY created_at, id',
      [userId],
    );
    return rows.map((row) => `${row.publicKey}\n`).join('');
  }

  /**
   * Checks `armoured` (ssh-keygen -Y sign -n termpaste) over `content`'s UTF-8 bytes against the keys
   * author `authorId` lists now: 400 for what is no SSH signature, 422 for one in another namespace or
   * hash, by a key they do not list, or that does not match the content.
   */
  async check(authorId: number, content: string, armoured: string): Promise<CheckedSignature> {
    let signature;
    try {
      signature = parseSignature(armoured);
    } catch (error) {
      if (!(error instanceof SshFormatError)) throw error;
      if (error.message === SIGNATURE_MESSAGES.malformed) throw new BadRequestException(error.message);
      throw new UnprocessableEntityException(error.message);
    }
    const held: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM ssh_keys WHERE user_id = $1 AND fingerprint = $2',
      [authorId, signature.fingerprint],
    );
    if (held.length === 0) {
      throw new UnprocessableEntityException(SIGNATURE_MESSAGES.unknownKey(signature.fingerprint));
    }
    let valid: boolean;
    try {
      valid = verifySignature(signature, Buffer.from(content, 'utf8'));
    } catch (error) {
      if (error instanceof SshFormatError) throw new UnprocessableEntityException(error.message);
      throw error;
    }
    if (!valid) throw new UnprocessableEntityException(SIGNATURE_MESSAGES.mismatch);
    return {
      armoured: `${armoured.trim()}\n`,
      fingerprint: signature.fingerprint,
      keyType: signature.publicKey.type,
    };
  }

  /** Stores a checked signature beside the new paste `pasteId`, in the paste's transaction. */
  async record(manager: EntityManager, pasteId: number, signature: CheckedSignature): Promise<void> {
    await manager.query(
      'INSERT INTO paste_signatures (thread_id, signature, fingerprint, key_type) VALUES ($1, $2, $3, $4)',
      [pasteId, signature.armoured, signature.fingerprint, signature.keyType],
    );
  }

  /** An edit's new signature (checked) in place of the paste's old one, in the edit's transaction. */
  async replace(manager: EntityManager, pasteId: number, signature: CheckedSignature): Promise<void> {
    await manager.query(
      `INSERT INTO paste_signatures (thread_id, signature, fingerprint, key_type) VALUES ($1, $2, $3, $4)
       ON CONFLICT (thread_id) DO UPDATE
         SET signature = EXCLUDED.signature, fingerprint = EXCLUDED.fingerprint, key_type = EXCLUDED.key_type,
           created_at = now()`,
      [pasteId, signature.armoured, signature.fingerprint, signature.keyType],
    );
  }

  /** An edit changed the paste's bytes: its signature signs them no more. In the edit's transaction. */
  async drop(manager: EntityManager, pasteId: number): Promise<void> {
    await manager.query('DELETE FROM paste_signatures WHERE thread_id = $1', [pasteId]);
  }

  /** The armoured signature of paste `pasteId` (whose reader the caller judged), or null. */
  async armoured(pasteId: number): Promise<string | null> {
    const [row]: Array<{ signature: string }> = await this.dataSource.query(
      'SELECT signature FROM paste_signatures WHERE thread_id = $1',
      [pasteId],
    );
    return row?.signature ?? null;
  }
}
