/**
 * @termpaste/contracts/account (contracts/src/account.ts) as the browser shares it, apart from the
 * `@termpaste/contracts` singleton (contracts.ts) like contracts-tokens.ts: only the settings remote's
 * account screen reads it. mf-shared.ts provides it as the `@termpaste/contracts/account` shared singleton.
 */
export * from '../../../../contracts/dist/account.js';
