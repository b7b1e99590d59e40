/** A user's active premium grade while they own it, else NULL (a grade taken back stops showing). */
export const ownedActiveRank = (alias: string) =>
  `CASE WHEN ${alias}.active_premium_rank = ANY (${alias}.owned_premium_ranks) THEN ${alias}.active_premium_rank END`;

/**
 * A user (joined as `alias`, possibly NULL by a LEFT JOIN) as JSON for an author column: the
 * PublicAuthor of contracts, public fields only, never the e-mail address; NULL when there is none.
 */
export const authorJson = (alias: string) => `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object(
  'id', ${alias}.id, 'username', ${alias}.username::text, 'avatarUrl', ${alias}.avatar_url,
  'profileImageUrl', ${alias}.profile_image_url, 'firstName', ${alias}.first_name,
  'lastName', ${alias}.last_name, 'reputation', ${alias}.reputation,
  'activePremiumRank', ${ownedActiveRank(alias)}) END`;

/**
 * Joins a row's author as `alias` (LEFT: a deleted author's rows keep a NULL author), for authorJson:
 * the read-only fragment through which lists that show authors read the users table in one query.
 */
export const authorJoin = (alias: string, column: string) =>
  `LEFT JOIN users ${alias} ON ${alias}.id = ${column}`;

/**
 * The id of the member named by the SQL expression `name` (a parameter), or NULL: the read-only
 * fragment through which a list filtered by author (search's `user:`) reads the users table.
 */
export const userIdByName = (name: string) => `(SELECT u.id FROM users u WHERE u.username = ${name})`;
