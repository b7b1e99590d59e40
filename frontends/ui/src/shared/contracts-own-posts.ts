/**
 * @termpaste/contracts/own-posts (contracts/src/own-posts.ts) as the browser shares it, apart from the
 * `@termpaste/contracts` singleton (contracts.ts) like contracts-revisions.ts: the texts of a post's life
 * (expiry, burning, deleting, forks, the trash), read by the paste's screens and the admin remote's trash,
 * not by a first visit's home. mf-shared.ts provides it as the `@termpaste/contracts/own-posts` shared
 * singleton.
 */
export * from '../../../../contracts/dist/own-posts.js';
