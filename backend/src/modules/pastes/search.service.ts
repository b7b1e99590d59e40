import { BadRequestException, Injectable } from '@nestjs/common';
import {
  hasSearchWords,
  type ParsedSearch,
  parseSearchQuery,
  PASTE_MESSAGES,
  PASTES_PAGE_SIZE,
  printSearchTerm,
  SEARCH_CANDIDATES_MAX,
  type SearchResults,
  type SearchTerm,
} from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { userIdByName } from '../users/author-sql.js';
import { CARD_COLUMNS, CARD_FROM } from './cards.js';
import { canonicalLanguage } from './languages.js';
import { type CardRow, toCard } from './paste-rows.js';
import { listedSql } from './visibility.js';

/** Search reads this many of the newest pastes to see how common the words are (SearchService.search). */
export const SEARCH_PROBE = 1_000;
/** Search walks no further than this many of the newest pastes for a common word's candidates. */
export const SEARCH_WINDOW = 50_000;

/**
 * A word written as code: camelCase, CONSTANT_CASE, snake_case, dotted or pathed, letters with digits.
 * Such a word is also looked for among the code words, where `this.getUserById(` holds `getuserbyid`.
 */
export function looksLikeCode(word: string): boolean {
  return (
    /[a-z][A-Z]/.test(word) ||
    /^[A-Z][A-Z0-9]{2,}$/.test(word) ||
    /[\p{L}\p{N}][._:/\\$#>-]+[\p{L}\p{N}]/u.test(word) ||
    /\p{L}\d|\d\p{L}/u.test(word) ||
    word.includes('_')
  );
}

/**
 * A term as the code-words vector cuts it (at every character not a letter or digit), for
 * websearch_to_tsquery('simple'): one word, or its words together as a phrase.
 */
const codeTerm = (text: string): string => {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.length > 1 ? `"${words.join(' ')}"` : (words[0] ?? '');
};

/** The websearch_to_tsquery text of the terms: a quote inside a word would open a phrase, so it goes. */
const websearchText = (terms: SearchTerm[]): string =>
  terms.map((term) => printSearchTerm({ ...term, text: term.text.replaceAll('"', ' ').trim() })).join(' ');

/** What the conditions read of a paste in the source's rows (never its content, which may be long). */
const SOURCE_COLUMNS = `t.id, t.created_at, t.search, t.code_words, t.title, t.tags, t.language, t.author_id,
  t.is_featured, t.listed, t.expires_at`;

/** SQL parameters, numbered as they are added. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A parsed search as SQL: what each strategy of `SearchService.search` reads. */
interface SearchSql {
  params: Params;
  /** The driving list, newest first, `limit` rows (an SQL expression): the pastes that may match. */
  source: (limit: string) => string;
  /** Whether the source is the newest listed pastes with no filter (then it is also the text's sample). */
  plainSource: boolean;
  /** Every condition on a row `t` of the source: filters and words. */
  match: string;
  /** The words' condition alone, or null: no word to find (the GIN index cannot help). */
  text: string | null;
  /**
   * Every filter, for the GIN strategy's WHERE, each as `(…) IS TRUE` so that no btree index can take
   * part: a bitmap of every typescript paste or every paste since a date would cost more than the words'.
   */
  ginFilters: string;
  /** The websearch text of the english query (ranking), or null: no terms. */
  words: string | null;
}

/** Full-text search over the listed pastes, with operators: PostgreSQL's, on the generated vectors. */
@Injectable()
export class SearchService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Search: relevance (or `sort:new`, `sort:top`), then recency; 50 a page. Only the newest
   * SEARCH_CANDIDATES_MAX matches are ranked and counted (`totalCapped`): a probe picks a walk down the
   * most selective filter's index (common words, filters alone) or the GIN index (rare ones).
   */
  async search(
    text: string,
    page: number,
    { candidates: cap = SEARCH_CANDIDATES_MAX, window = SEARCH_WINDOW, probe = SEARCH_PROBE } = {},
  ): Promise<SearchResults> {
    const parsed = parseSearchQuery(text);
    if (!parsed.ok) throw new BadRequestException(parsed.error);
    const query = parsed.query;
    const sql = this.toSql(query);
    const found = await this.candidates(sql, hasSearchWords(query), { cap, window, probe });
    const offset = (page - 1) * PASTES_PAGE_SIZE;
    const ids = found.slice(0, cap).map((row) => row.id);
    const sort = query.sort ?? (hasSearchWords(query) ? 'relevance' : 'new');
    const order = {
      relevance: 'rank DESC, created_at DESC, id DESC',
      new: 'created_at DESC, id DESC',
      top: 'vote_score DESC, created_at DESC, id DESC',
    }[sort];
    const ranked = sort === 'relevance' && sql.words !== null;
    const rows: CardRow[] =
      offset < ids.length
        ? await this.dataSource.query(
            `WITH ranked AS MATERIALIZED (
               SELECT t.id, t.created_at, t.vote_score,
                 ${ranked ? "ts_rank(t.search, websearch_to_tsquery('english', $4))" : '0'} AS rank
               FROM threads t WHERE t.id = ANY ($1::int[])
             )
             SELECT ${CARD_COLUMNS}
             FROM (SELECT id, created_at, vote_score, rank FROM ranked
                   ORDER BY ${order} LIMIT $2 OFFSET $3) r
             JOIN ${CARD_FROM} ON t.id = r.id
             ORDER BY ${order.replaceAll(/(\w+) DESC/g, 'r.$1 DESC')}`,
            [ids, PASTES_PAGE_SIZE + 1, offset, ...(ranked ? [sql.words] : [])],
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

  /**
   * Whether the search `text` finds any of the pastes `ids` (new ones): if none, its pages are as they
   * were. A query that does not parse finds nothing.
   */
  async findsAny(text: string, ids: readonly number[]): Promise<boolean> {
    const parsed = parseSearchQuery(text);
    if (!parsed.ok || ids.length === 0) return false;
    const { params, match } = this.toSql(parsed.query);
    const [row] = await this.dataSource.query<Array<{ found: boolean }>>(
      `SELECT EXISTS (SELECT 1 FROM threads t WHERE t.id = ANY (${params.add(ids)}::int[]) AND ${match}) AS found`,
      params.values,
    );
    return row?.found ?? true;
  }

  /** The newest matches, at most `cap + 1` (one more says there are more than `cap`). */
  private async candidates(
    sql: SearchSql,
    words: boolean,
    { cap, window, probe }: { cap: number; window: number; probe: number },
  ): Promise<Array<{ id: number }>> {
    const { params, source, match, text } = sql;
    const values = params.values;
    const at = values.length;
    const newest = `SELECT t.id, t.search, t.code_words, t.title FROM threads t WHERE ${listedSql('t')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT $${at + 1}`;
    // How common the text is among all pastes (the GIN index's share), beside how common a match is in
    // the source, when the two differ.
    const textHits =
      text && !sql.plainSource
        ? `(SELECT (count(*) FILTER (WHERE ${text}))::int FROM (${newest}) t)`
        : 'NULL::int';
    // A filter's list is walked down its index, whatever the statistics say: the LIMIT of the window is
    // far above what the walk reads before it has its candidates, and would make a hash join and a sort
    // of every paste of a tag (or a member, a language) look cheaper.
    const walking = <T>(statement: string, parameters: unknown[]): Promise<T> =>
      sql.plainSource
        ? this.dataSource.query(statement, parameters)
        : this.dataSource.transaction(async (manager) => {
            await manager.query(
              `SELECT ${['seqscan', 'bitmapscan', 'sort', 'hashjoin', 'mergejoin']
                .map((setting) => `set_config('enable_${setting}', 'off', true)`)
                .join(', ')}`,
            );
            return manager.query(statement, parameters);
          });
    const [sample] = await walking<
      Array<{ examined: number; hits: number; textHits: number | null; pastes: number | null }>
    >(
      `SELECT count(*)::int AS examined, (count(*) FILTER (WHERE ${match}))::int AS hits,
           ${textHits} AS "textHits", (SELECT max(id) FROM threads) AS pastes
         FROM (${source(`$${at + 1}`)}) t`,
      [...values, probe],
    );
    const { examined, hits } = sample!;
    const pastes = sample!.pastes ?? 0; // at least as many ids as pastes
    const exhausted = examined < probe; // the source holds fewer pastes than the probe read
    const textShare = (sample!.textHits ?? hits) / probe;
    // Walk when that reads fewer rows than the GIN index would point at (a walk's rows lie together in
    // the table, the index's are scattered over it; a phrase has the index's rows read whole, too).
    const walked = exhausted ? examined : hits ? ((cap + 1) * examined) / hits : Infinity;
    const pointedAt = words ? textShare * pastes : Infinity;
    if ((walked <= window && walked <= pointedAt) || !words) {
      // Without words there is no index of the text to turn to: the walk is bounded, by the window, or
      // (filters that seldom go together, as the probe saw) by a few probes' worth of the source.
      const bound = walked <= window ? window : Math.min(window, probe * 5);
      const walk = await walking<Array<{ id: number }>>(
        `SELECT t.id FROM (${source(`$${at + 1}`)}) t WHERE ${match} LIMIT $${at + 2}`,
        [...values, bound, cap + 1],
      );
      if (walk.length > cap || exhausted || pastes <= window || !words) return walk;
    }
    return this.dataSource.transaction(async (manager): Promise<Array<{ id: number }>> => {
      // The GIN index, whatever the statistics say: no walk, no sequential scan.
      await manager.query(
        "SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)",
      );
      return manager.query(
        `SELECT t.id FROM threads t WHERE ${text} AND ${sql.ginFilters}
         ORDER BY t.created_at DESC, t.id DESC LIMIT $${at + 1}`,
        [...values, cap + 1],
      );
    });
  }

  /** The parsed query as SQL over `threads t`. */
  private toSql(query: ParsedSearch): SearchSql {
    const params = new Params();
    const filters = [listedSql('t')];
    let source: ((limit: string) => string) | undefined;
    const bounds: string[] = [];
    const day = (date: string) => params.add(new Date(`${date}T00:00:00Z`));
    if (query.after) bounds.push(`>= ${day(query.after)}`);
    if (query.before) bounds.push(`< ${day(query.before)}`);
    const within = (column: string) => bounds.map((bound) => ` AND ${column} ${bound}`).join('');
    filters.push(...bounds.map((bound) => `t.created_at ${bound}`));
    const newestOf = (where: string) => (limit: string) =>
      `SELECT ${SOURCE_COLUMNS} FROM threads t WHERE ${where} AND ${listedSql('t')}${within('t.created_at')}
       ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`;
    // The driving list: the filter whose index holds the fewest pastes, as a rule (featured pastes are
    // few, a member's are few, a tag's fewer than a language's).
    if (query.featured) {
      filters.push('t.is_featured');
      source = newestOf('t.is_featured');
    }
    if (query.user) {
      const author = `t.author_id = ${userIdByName(params.add(query.user))}`;
      filters.push(author);
      source ??= newestOf(author);
    }
    if (query.tags.length) {
      // One parameter for both, so that every strategy's SQL uses each of its parameters.
      const tags = params.add(query.tags);
      filters.push(`t.tags @> ${tags}::text[]`);
      source ??= (limit) =>
        `SELECT ${SOURCE_COLUMNS} FROM paste_tags pt JOIN threads t ON t.id = pt.thread_id
         WHERE pt.tag_id = (SELECT g.id FROM tags g WHERE g.name = (${tags}::text[])[1])${within('pt.created_at')}
           AND ${listedSql('t')}
         ORDER BY pt.created_at DESC, pt.thread_id DESC LIMIT ${limit}`;
    }
    if (query.lang) {
      const name = canonicalLanguage(query.lang);
      if (name === undefined) throw new BadRequestException(PASTE_MESSAGES.unknownLanguage(query.lang));
      // Markdown is stored as no language.
      const language = name === 'markdown' ? 't.language IS NULL' : `t.language = ${params.add(name)}`;
      filters.push(language);
      source ??= newestOf(language);
    }
    const plainSource = source === undefined && bounds.length === 0;
    source ??= newestOf('TRUE');

    let text: string | null = null;
    let words: string | null = null;
    if (query.terms.length) {
      words = websearchText(query.terms);
      const english = `websearch_to_tsquery('english', ${params.add(words)})`;
      text = `t.search @@ ${english}`;
      if (query.inTitle) text += ` AND ts_filter(t.search, '{a}') @@ ${english}`;
      const positive = query.terms.filter((term) => !term.negated);
      // Identifiers: a paste also matches when its code words hold every word, and no left-out one.
      if (positive.some((term) => !term.phrase && looksLikeCode(term.text))) {
        const code = `websearch_to_tsquery('simple', ${params.add(positive.map((term) => codeTerm(term.text)).join(' '))})`;
        let inCode = `t.code_words @@ ${code}`;
        if (query.inTitle)
          inCode += ` AND to_tsvector('simple', regexp_replace(t.title, '[^[:alnum:]]+', ' ', 'g')) @@ ${code}`;
        const negated = query.terms.filter((term) => term.negated);
        if (negated.length) {
          const unwanted = negated.map((term) => printSearchTerm({ ...term, negated: false })).join(' or ');
          inCode += ` AND NOT t.search @@ websearch_to_tsquery('english', ${params.add(unwanted)})`;
        }
        text = `(${text} OR (${inCode}))`;
      }
      // A left-out identifier is left out wherever it stands in code, too.
      for (const term of query.terms) {
        if (term.negated && !term.phrase && looksLikeCode(term.text))
          text += ` AND NOT t.code_words @@ websearch_to_tsquery('simple', ${params.add(codeTerm(term.text))})`;
      }
    }
    const filterSql = filters.join(' AND ');
    return {
      params,
      source,
      plainSource,
      match: text ? `${filterSql} AND ${text}` : filterSql,
      text,
      ginFilters: [filters[0], ...filters.slice(1).map((filter) => `(${filter}) IS TRUE`)].join(' AND '),
      words,
    };
  }
}
