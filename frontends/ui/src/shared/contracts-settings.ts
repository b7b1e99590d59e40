/**
 * @termpaste/contracts/settings (contracts/src/settings.ts) as the browser shares it, apart from the
 * `@termpaste/contracts` singleton (contracts.ts) like contracts-sso.ts: only the settings remote's screens
 * read it, and it would be in every first visit's JavaScript. mf-shared.ts provides it as the
 * `@termpaste/contracts/settings` shared singleton.
 */
export * from '../../../../contracts/dist/settings.js';
