/**
 * @termpaste/contracts/reputation (contracts/src/reputation.ts) as the browser shares it, apart from the
 * `@termpaste/contracts` singleton (contracts.ts) like contracts-sso.ts: only the forum remote's profile
 * screen reads it (lazy), and it would be in every first visit's JavaScript. mf-shared.ts provides it as
 * the `@termpaste/contracts/reputation` shared singleton.
 */
export * from '../../../../contracts/dist/reputation.js';
