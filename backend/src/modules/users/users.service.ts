import { ConflictException, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { violatedUniqueConstraint } from '../../common/unique-violation.js';
import type { Row } from '../../infra/database/columns.js';
import { takeLock } from '../../infra/database/lock-order.js';
import { type PreparedStatement, prepare, queryPrepared } from '../../infra/database/prepared.js';
import { User, withEndedLifted } from './entities/user.entity.js';

export const USERNAME_TAKEN = 'Username is already taken';
export const EMAIL_TAKEN = 'Email is already registered';

const CONFLICTS: Record<string, string> = {
  users_username_key: USERNAME_TAKEN,
  users_email_key: EMAIL_TAKEN,
};

export interface NewUser {
  username: string;
  email: string;
  /** Null: an account a sign-in provider makes, without a password. */
  passwordHash: string | null;
  /** The address counts as verified from the start (a provider said it is). Default false. */
  emailVerified?: boolean;
  /** False: the username is a proposal its member may change once. Default true. */
  usernameChosen?: boolean;
}

/** What `setAdmin` did, for the CLI to report. */
export type AdminChange = 'granted' | 'revoked' | 'unchanged' | 'not-found' | 'owner';

let fields: Array<{ column: string; property: string }> | undefined;

/** Each column of `users` with its User property (from the entity's metadata: never stale). */
function userFields(dataSource: DataSource): Array<{ column: string; property: string }> {
  fields ??= dataSource
    .getMetadata(User)
    .columns.map((column) => ({ column: column.databaseName, property: column.propertyName }));
  return fields;
}

let columns: string | undefined;

/**
 * Every column of `users` under its property's name, so a row becomes a User as it is:
 * `Object.assign(new User(), row)`.
 */
function userColumns(dataSource: DataSource): string {
  columns ??= userFields(dataSource)
    .map(({ column, property }) => `"${column}" AS "${property}"`)
    .join(', ');
  return columns;
}

/** A `users` row under its properties' names, every column (userColumns). */
type UserRow = Row<User, keyof User>;

let userById: PreparedStatement<UserRow, [id: number]> | undefined;

/** A member by id (UsersService.findById), read on `db`: its row, none once the account is deleted. */
async function userByIdRow(
  dataSource: DataSource,
  db: DataSource | EntityManager,
  id: number,
): Promise<UserRow | undefined> {
  userById ??= prepare('user-by-id', `SELECT ${userColumns(dataSource)} FROM users WHERE id = $1`);
  const [row] = await queryPrepared(db, userById, [id]);
  return row;
}

const asUser = (row: Partial<User> | undefined): User | null =>
  row ? withEndedLifted(Object.assign(new User(), row)) : null;

/** The prefix of a member's columns in a row that joins them (userJoin). */
const USER_PREFIX = 'member.';

/** What userJoin gives a query that reads a row with the member it names. */
export interface UserJoin {
  /** Every column of `users` joined as the alias, each as `"member.<property>"`. */
  columns: string;
  /** LEFT JOIN of `users` on the row's member column: a row whose member is gone keeps NULLs. */
  join: string;
  /** The row's member as a User (as findById hydrates one), or null when it names none. */
  userOf(row: Record<string, unknown>): User | null;
}

/**
 * The read-only fragment through which another module reads a row together with the member it names, in
 * one query (auth's session store: the session and its member in one round trip for every signed-in
 * request, instead of the session, then findById).
 */
export function userJoin(dataSource: DataSource, alias: string, column: string): UserJoin {
  const joined = userFields(dataSource).map(({ column: name, property }) => ({
    property,
    as: `${USER_PREFIX}${property}`,
    select: `${alias}."${name}" AS "${USER_PREFIX}${property}"`,
  }));
  return {
    columns: joined.map((field) => field.select).join(', '),
    join: `LEFT JOIN users ${alias} ON ${alias}.id = ${column}`,
    userOf: (row) =>
      row[`${USER_PREFIX}id`] == null
        ? null
        : asUser(Object.fromEntries(joined.map((field) => [field.property, row[field.as]])) as Partial<User>),
  };
}

/** Accounts: the `users` table. */
@Injectable()
export class UsersService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Every request of a signed-in member loads them (a ban or a deletion takes effect at once): a
   * prepared statement, hydrated as the repository would (a spec compares the two). `db`: a caller's
   * transaction to read in.
   */
  async findById(id: number, db: DataSource | EntityManager = this.dataSource): Promise<User | null> {
    return asUser(await userByIdRow(this.dataSource, db, id));
  }

  /**
   * The first member `where` (SQL on `users`, its parameters `params`) finds, or null; `forUpdate` locks
   * the row for the rest of `manager`'s transaction.
   */
  private async findOne(
    where: string,
    params: unknown[],
    {
      manager = this.dataSource.manager,
      forUpdate = false,
    }: { manager?: EntityManager; forUpdate?: boolean } = {},
  ): Promise<User | null> {
    const [row]: Array<Partial<User>> = await manager.query(
      `SELECT ${userColumns(this.dataSource)} FROM users WHERE ${where} LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`,
      params,
    );
    return asUser(row);
  }

  /** By username or e-mail, in any letter case (usernames cannot hold an @, so the two never clash). */
  findByUsernameOrEmail(usernameOrEmail: string): Promise<User | null> {
    return this.findOne('username = $1 OR email = $1', [usernameOrEmail]);
  }

  /** By e-mail address, in any letter case (citext). */
  findByEmail(email: string): Promise<User | null> {
    return this.findOne('email = $1', [email]);
  }

  /** By username, in any letter case (citext). */
  findByUsername(username: string): Promise<User | null> {
    return this.findOne('username = $1', [username]);
  }

  /**
   * The ids of the members with these usernames (any letter case), in the order the names come, names
   * of nobody skipped, `except` left out, at most `limit`.
   */
  async idsByUsernames(
    names: string[],
    { except, limit }: { except: number; limit: number },
  ): Promise<number[]> {
    const rows: Array<Row<User, 'id'>> = await this.dataSource.query(
      `SELECT u.id FROM unnest($1::text[]) WITH ORDINALITY AS m (name, position)
       JOIN users u ON u.username = m.name::citext
       WHERE u.id <> $2
       ORDER BY m.position LIMIT $3`,
      [names, except, limit],
    );
    return rows.map((row) => row.id);
  }

  /** A 409 naming what is taken, before the caller spends time hashing a password. */
  async assertAvailable(username: string, email: string): Promise<void> {
    const [taken]: Array<{ username: boolean | null; email: boolean | null }> = await this.dataSource.query(
      `SELECT bool_or(username = $1) AS username, bool_or(email = $2) AS email
       FROM users WHERE username = $1 OR email = $2`,
      [username, email],
    );
    if (taken?.username) throw new ConflictException(USERNAME_TAKEN);
    if (taken?.email) throw new ConflictException(EMAIL_TAKEN);
  }

  /**
   * Creates an account, not verified and no owner (the owner comes of a verified address: see
   * OwnerService); 409 when the username or e-mail is taken in any letter case. `within` runs in the
   * same transaction with the new account (its first verification link, say).
   */
  async create<T = void>(
    newUser: NewUser,
    within?: (manager: EntityManager, user: User) => Promise<T>,
  ): Promise<{ user: User; extra: T | undefined }> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const [row]: Array<Partial<User>> = await manager.query(
          `INSERT INTO users (username, email, password_hash, email_verified_at, username_chosen)
           VALUES ($1, $2, $3, CASE WHEN $4 THEN now() END, $5)
           RETURNING ${userColumns(this.dataSource)}`,
          [
            newUser.username,
            newUser.email,
            newUser.passwordHash,
            newUser.emailVerified ?? false,
            newUser.usernameChosen ?? true,
          ],
        );
        const user = asUser(row)!;
        return { user, extra: within ? await within(manager, user) : undefined };
      });
    } catch (error) {
      const conflict = uniqueViolation(error);
      if (conflict) throw new ConflictException(conflict);
      throw error;
    }
  }

  /**
   * Which of `names` (compared in any letter case) are taken, lower-cased: for proposing a free username
   * without a query per candidate.
   */
  async takenUsernames(names: string[]): Promise<Set<string>> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      'SELECT lower(username::text) AS name FROM users WHERE username = ANY($1::citext[])',
      [names],
    );
    return new Set(rows.map((row) => row.name));
  }

  /**
   * The member of an account a provider made keeps or changes its proposed username, once: the member as
   * they are then, or 'already-chosen' (nothing changed) once they have; 409 USERNAME_TAKEN when another
   * member has it.
   */
  async chooseUsername(userId: number, username: string): Promise<User | 'already-chosen'> {
    try {
      const [rows]: [Array<Partial<User>>, number] = await this.dataSource.query(
        `UPDATE users SET username = $2, username_chosen = true, updated_at = now()
         WHERE id = $1 AND NOT username_chosen RETURNING ${userColumns(this.dataSource)}`,
        [userId, username],
      );
      return asUser(rows[0]) ?? 'already-chosen';
    } catch (error) {
      const conflict = uniqueViolation(error);
      if (conflict) throw new ConflictException(conflict);
      throw error;
    }
  }

  /** Marks the member's address verified (a no-op when it already is); inside the caller's transaction. */
  async markEmailVerified(userId: number, manager: EntityManager): Promise<void> {
    await manager.query(
      'UPDATE users SET email_verified_at = now() WHERE id = $1 AND email_verified_at IS NULL',
      [userId],
    );
  }

  /** Sets the password (a password-less account gets its first one by a reset link). */
  async setPasswordHash(userId: number, passwordHash: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      'UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1',
      [userId, passwordHash],
    );
  }

  /**
   * In the caller's transaction: moves a member's counts of pastes and replies (kept on write: a reply
   * adds one; a deletion takes its pastes and replies off, never below zero).
   */
  async moveCounts(
    manager: EntityManager,
    userId: number,
    { pastes = 0, replies = 0 }: { pastes?: number; replies?: number },
  ): Promise<void> {
    takeLock(manager, 'user');
    await manager.query(
      `UPDATE users SET thread_count = GREATEST(thread_count + $2, 0), reply_count = GREATEST(reply_count + $3, 0)
       WHERE id = $1`,
      [userId, pastes, replies],
    );
  }

  /**
   * Grants or revokes admin by username (any letter case). The owner always stays admin. Pass the
   * transaction's manager to make it part of a larger change (the CLI records it in the audit log).
   */
  async setAdmin(
    username: string,
    isAdmin: boolean,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ change: AdminChange; user?: User }> {
    const user = await this.findOne('username = $1', [username], { manager });
    if (!user) return { change: 'not-found' };
    if (user.isOwner && !isAdmin) return { change: 'owner', user };
    if (user.isAdmin === isAdmin) return { change: 'unchanged', user };
    await manager.query('UPDATE users SET is_admin = $2, updated_at = now() WHERE id = $1', [
      user.id,
      isAdmin,
    ]);
    return { change: isAdmin ? 'granted' : 'revoked', user: { ...user, isAdmin } };
  }

  /** The owner's username, or undefined while there is none (auth's owner claim asks, under its lock). */
  async ownerName(manager: EntityManager): Promise<string | undefined> {
    const [row]: Array<Row<User, 'username'>> = await manager.query(
      'SELECT username::text AS username FROM users WHERE is_owner',
    );
    return row?.username;
  }

  /** Member `userId`, their row locked until `manager`'s transaction ends; null if there is none. */
  lockById(manager: EntityManager, userId: number): Promise<User | null> {
    takeLock(manager, 'account');
    return this.findOne('id = $1', [userId], { manager, forUpdate: true });
  }

  /** In the caller's transaction: the member becomes the owner, and an admin (the owner always is one). */
  async makeOwner(manager: EntityManager, userId: number): Promise<void> {
    await manager.query('UPDATE users SET is_owner = true, is_admin = true WHERE id = $1', [userId]);
  }

  /**
   * Whether member `userId` has the address `email` (any letter case, as the column compares): a link
   * mailed to an address works while it is still the member's.
   */
  async hasAddress(
    userId: number,
    email: string,
    { manager = this.dataSource.manager }: { manager?: EntityManager } = {},
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT 1 FROM users WHERE id = $1 AND email = $2::citext', [
      userId,
      email,
    ]);
    return rows.length > 0;
  }

  /**
   * Makes `rankName` the member's active premium grade (null: none), only if they own it: checked in the
   * same statement, so a grade taken back meanwhile cannot become active. False when they do not (or
   * there is no such member).
   */
  async setActiveRank(userId: number, rankName: string | null): Promise<boolean> {
    const rows: Array<Row<User, 'id'>> = await this.dataSource.query(
      `WITH u AS (
         UPDATE users SET active_premium_rank = $2, updated_at = now()
         WHERE id = $1 AND ($2::text IS NULL OR $2::text = ANY(owned_premium_ranks))
         RETURNING id)
       SELECT id FROM u`,
      [userId, rankName],
    );
    return rows.length > 0;
  }
}

function uniqueViolation(error: unknown): string | undefined {
  const constraint = violatedUniqueConstraint(error);
  return constraint === undefined ? undefined : CONFLICTS[constraint];
}
