/**
 * @termpaste/contracts/admin (contracts/src/admin.ts) as the browser shares it, apart from the
 * `@termpaste/contracts` singleton (contracts.ts) like contracts-sso.ts: only the admin remote's screens
 * read it, and it would be in every first visit's JavaScript. mf-shared.ts provides it as the
 * `@termpaste/contracts/admin` shared singleton.
 */
export * from '../../../../contracts/dist/admin.js';
