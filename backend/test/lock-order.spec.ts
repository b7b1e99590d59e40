import type { EntityManager } from 'typeorm';
import {
  checkLockSequence,
  locking,
  lockingSql,
  takeLock,
  takeLocks,
} from '../src/infra/database/lock-order.js';
import { prepare } from '../src/infra/database/prepared.js';
import { cappedAwardCtes } from '../src/modules/ranks/reputation.service.js';
import { lockedUser, moveReputation } from '../src/modules/users/user-sql.js';

/** A transaction's manager as takeLock sees it (no database needed: the check runs no query). */
const transaction = () => ({ queryRunner: { isTransactionActive: true } }) as unknown as EntityManager;

describe('lock order (infra/database/lock-order)', () => {
  it('lets a transaction take its locks in the order, a kind again included', () => {
    const manager = transaction();
    expect(() => {
      takeLock(manager, 'paste');
      takeLock(manager, 'paste');
      takeLock(manager, 'reply');
      takeLock(manager, 'user');
      takeLock(manager, 'user');
      takeLock(manager, 'daily');
    }).not.toThrow();
  });

  it('throws, naming both kinds, when a transaction locks a kind ranked before one it holds', () => {
    const manager = transaction();
    takeLock(manager, 'paste');
    takeLock(manager, 'user');
    expect(() => takeLock(manager, 'paste')).toThrow(
      'Lock order broken in a transaction: "paste" is locked after "user" ' +
        '(the order is account, paste-daily, paste, reply, user, daily: infra/database/lock-order.ts)',
    );
    // A new paste's daily row comes before the member's row, never after.
    expect(() => takeLocks(transaction(), ['user', 'paste-daily'])).toThrow(
      '"paste-daily" is locked after "user"',
    );
  });

  it('lets a transaction lock again rows it holds (by id), but no other row of that kind', () => {
    const manager = transaction();
    takeLock(manager, 'paste', [1, 2]);
    takeLock(manager, 'user');
    expect(() => takeLock(manager, 'paste', [2])).not.toThrow();
    expect(() => takeLock(manager, 'paste', [3])).toThrow('"paste" is locked after "user"');
  });

  it('tracks each transaction apart, and nothing outside one', () => {
    const one = transaction();
    takeLock(one, 'user');
    expect(() => takeLock(transaction(), 'paste')).not.toThrow();
    const pooled = { queryRunner: undefined } as unknown as EntityManager;
    takeLock(pooled, 'daily');
    expect(() => takeLock(pooled, 'paste')).not.toThrow();
  });

  it("checks a composed statement's sequence where it is declared, from its parts' locks", () => {
    const award = cappedAwardCtes({
      userId: '$1',
      reason: 'paste',
      points: '$2',
      cap: '$3',
      source: 'created',
      threadId: 's.id',
      replyId: 'NULL',
    });
    const move = moveReputation({ id: '$1', points: 'COALESCE((SELECT points FROM daily), 0)' });
    const right = lockingSql`WITH ${award.daily}, author AS (${move} RETURNING id), ${award.logged} SELECT 1`;
    expect(right.locks).toEqual(['paste-daily', 'user']);
    expect(prepare('test-locks-in-order', right).locks).toEqual(['paste-daily', 'user']);
    const wrong = lockingSql`WITH member AS (${lockedUser('$1')}), ${award.daily}, ${award.logged} SELECT 1`;
    expect(() => prepare('test-locks-out-of-order', wrong)).toThrow(
      'Lock order broken in "test-locks-out-of-order": "paste-daily" is locked after "user"',
    );
    expect(() => checkLockSequence('s', [...locking('', 'reply').locks, 'paste'])).toThrow(
      '"paste" is locked after "reply"',
    );
  });

  it('gives a fragment typed operands, names checked', () => {
    expect(() =>
      cappedAwardCtes({
        userId: '$1',
        reason: 'reply',
        points: '$2',
        cap: '$3',
        source: 'x; DROP TABLE users',
        threadId: 'NULL',
        replyId: 'r.id',
      }),
    ).toThrow('Not an SQL name');
    expect(moveReputation({ id: '$1', points: '(SELECT points FROM given)', skipZero: true }).sql).toMatch(
      /WHERE id = \$1 AND \(SELECT points FROM given\) <> 0$/,
    );
  });
});
