/**
 * The rows of `forum_stats` (migration 1796020000000): each transaction counts its pastes in its
 * connection's slot, so concurrent writes do not queue on one row; the count is their sum.
 */
export const PASTE_STATS_SLOT = 'pg_backend_pid() % 16';
