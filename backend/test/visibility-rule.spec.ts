import { pasteListed, pasteReadableBy, VISIBILITIES, type Visibility } from '@termpaste/contracts';
import { listedSql, newPasteKey, readableSql } from '../src/modules/pastes/visibility.js';
import { liveUser } from './support/live.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * The rule of who may read a paste is said twice, in TypeScript (contracts: pasteListed,
 * pasteReadableBy) and in SQL (pastes/visibility.ts: listedSql, readableSql, which every query uses):
 * for every combination of its facts and every kind of viewer, both must say the same.
 */
describe('the visibility rule, in TypeScript and in SQL alike', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('agrees on every visibility, burning, deletion, hiding and expiry, for the author, another member and a visitor', async () => {
    const author = (await liveUser(t)).user.id;
    const other = (await liveUser(t)).user.id;
    const expiries = {
      never: null,
      past: "now() - interval '1 minute'",
      future: "now() + interval '1 hour'",
    };
    const cases: Array<{
      id: number;
      visibility: Visibility;
      burns: boolean;
      deleted: boolean;
      hidden: boolean;
    }> = [];
    for (const visibility of VISIBILITIES) {
      for (const burns of [false, true]) {
        for (const deleted of [false, true]) {
          for (const hidden of [false, true]) {
            for (const expiry of Object.values(expiries)) {
              const [row]: Array<{ id: number }> = await t.dataSource.query(
                `INSERT INTO threads (title, content, author_id, visibility, key, burn_after_reading, deleted_at,
                   hidden_at, expires_at)
                 VALUES ('rule', 'rule', $1, $2, $3, $4, ${deleted ? 'now()' : 'NULL'}, ${hidden ? 'now()' : 'NULL'},
                   ${expiry ?? 'NULL'})
                 RETURNING id`,
                [author, visibility, newPasteKey(), burns],
              );
              cases.push({ id: row!.id, visibility, burns, deleted, hidden });
            }
          }
        }
      }
    }
    const rows: Array<{
      id: number;
      expires_at: Date | null;
      deleted_at: Date | null;
      hidden_at: Date | null;
      listed: boolean;
      by_author: boolean;
      by_other: boolean;
      by_visitor: boolean;
    }> = await t.dataSource.query(
      `SELECT t.id, t.expires_at, t.deleted_at, t.hidden_at, (${listedSql('t')}) AS listed,
         (${readableSql('t', '$2::int')}) AS by_author, (${readableSql('t', '$3::int')}) AS by_other,
         (${readableSql('t', 'NULL::int')}) AS by_visitor
       FROM threads t WHERE t.id = ANY ($1::int[]) ORDER BY t.id`,
      [cases.map((c) => c.id), author, other],
    );
    expect(rows).toHaveLength(72);
    const now = Date.now();
    for (const row of rows) {
      const known = cases.find((c) => c.id === row.id)!;
      const facts = {
        authorId: author,
        visibility: known.visibility,
        burnAfterReading: known.burns,
        expiresAt: row.expires_at?.toISOString() ?? null,
        deletedAt: row.deleted_at?.toISOString() ?? null,
        hiddenAt: row.hidden_at?.toISOString() ?? null,
      };
      const said = {
        listed: row.listed,
        author: row.by_author,
        other: row.by_other,
        visitor: row.by_visitor,
      };
      expect({ ...known, said }).toEqual({
        ...known,
        said: {
          listed: pasteListed(facts, now),
          author: pasteReadableBy(facts, author, now),
          other: pasteReadableBy(facts, other, now),
          visitor: pasteReadableBy(facts, null, now),
        },
      });
    }
    // Not a rule that says yes or no to everything: each answer is given both ways somewhere.
    for (const key of ['listed', 'by_author', 'by_other', 'by_visitor'] as const) {
      expect(new Set(rows.map((row) => row[key]))).toEqual(new Set([true, false]));
    }
  });
});
