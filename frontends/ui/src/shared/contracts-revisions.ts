/**
 * @termpaste/contracts/revisions (contracts/src/revisions.ts) as the browser shares it, apart from the
 * `@termpaste/contracts` singleton (contracts.ts) like contracts-sso.ts: only the forum remote's paste and
 * revisions screens read it (lazy), and it would be in every first visit's JavaScript. mf-shared.ts
 * provides it as the `@termpaste/contracts/revisions` shared singleton.
 */
export * from '../../../../contracts/dist/revisions.js';
