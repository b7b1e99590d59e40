import { Injectable } from '@nestjs/common';
import { SEARCH_CANDIDATES_MAX, type SearchResults, PASTES_PAGE_SIZE } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { CARD_COLUMNS, CARD_FROM } from './cards.js';
import { type CardRow, toCard } from './paste-rows.js';
import { listedSql } from './visibility.js';

/** Search reads this many of the newest pastes to see how common the words are (SearchService.search). */
export const SEARCH_PROBE = 1_000;
/** Search walks no further than this many of the newest pastes for a common word's candidates. */
export const SEARCH_WINDOW = 50_000;

/** Full-text search over the listed pastes: PostgreSQL's, on the generated `search` vector. */
@Injectable()
export class SearchService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Full-text search: relevance, then recency; 50 a page. Only the newest SEARCH_CANDIDATES_MAX matches
   * are ranked and counted (`totalCapped`), so no query reads every match of a common word: a probe picks
   * an index walk (common words) or the GIN index (rare ones). docs/backend.md.
   */
  async search(
    query: string,
    page: number,
    { candidates: cap = SEARCH_CANDIDATES_MAX, window = SEARCH_WINDOW, probe = SEARCH_PROBE } = {},
  ): Promise<SearchResults> {
    const matches = `t.search @@ websearch_to_tsquery('english', $1)`;
    const newest = (limit: string) =>
      `SELECT t.id, t.search FROM threads t WHERE ${listedSql('t')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`;
    const [sample]: Array<{ examined: number; hits: number; pastes: number | null }> =
      await this.dataSource.query(
        `SELECT count(*)::int AS examined, (count(*) FILTER (WHERE ${matches}))::int AS hits,
           (SELECT max(id) FROM threads) AS pastes
         FROM (${newest('$2')}) t`,
        [query, probe],
      );
    const { examined, hits } = sample!;
    const pastes = sample!.pastes ?? 0; // at least as many ids as pastes
    // Walk when that reads fewer rows than the GIN index would point at (a walk's rows lie together in
    // the table, the index's are scattered over it; a phrase has the index's rows read whole, too).
    const walked = hits ? ((cap + 1) * examined) / hits : Infinity;
    const pointedAt = (hits / Math.max(examined, 1)) * pastes;
    let found: Array<{ id: number }> | undefined;
    if (walked <= window && walked <= pointedAt) {
      const walk: Array<{ id: number }> = await this.dataSource.query(
        `SELECT t.id FROM (${newest('$2')}) t WHERE ${matches} LIMIT $3`,
        [query, window, cap + 1],
      );
      if (walk.length > cap || pastes <= window) found = walk;
    }
    found ??= await this.dataSource.transaction(async (manager): Promise<Array<{ id: number }>> => {
      // The GIN index, whatever the statistics say: no walk, no sequential scan.
      await manager.query(
        "SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)",
      );
      return manager.query(
        `SELECT t.id FROM threads t WHERE ${matches} AND ${listedSql('t')}
         ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
        [query, cap + 1],
      );
    });
    const offset = (page - 1) * PASTES_PAGE_SIZE;
    const ids = found.slice(0, cap).map((row) => row.id);
    const rows: CardRow[] =
      offset < ids.length
        ? await this.dataSource.query(
            `WITH ranked AS MATERIALIZED (
               SELECT t.id, t.created_at, ts_rank(t.search, websearch_to_tsquery('english', $1)) AS rank
               FROM threads t WHERE t.id = ANY ($2::int[])
             )
             SELECT ${CARD_COLUMNS}
             FROM (SELECT id, created_at, rank FROM ranked
                   ORDER BY rank DESC, created_at DESC, id DESC LIMIT $3 OFFSET $4) r
             JOIN ${CARD_FROM} ON t.id = r.id
             ORDER BY r.rank DESC, r.created_at DESC, r.id DESC`,
            [query, ids, PASTES_PAGE_SIZE + 1, offset],
          )
        : [];
    return {
      threads: rows.slice(0, PASTES_PAGE_SIZE).map(toCard),
      page,
      hasMore: rows.length > PASTES_PAGE_SIZE,
      total: ids.length,
      totalCapped: found.length > cap,
    };
  }
}
