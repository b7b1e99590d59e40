/**
 * @termpaste/contracts/sso (contracts/src/sso.ts) as the browser shares it: apart from the
 * `@termpaste/contracts` singleton (contracts.ts), since only the sign-in pages (visitors) and the settings
 * remote's lazy accounts and welcome screens read it, and it would be in every first visit's JavaScript.
 * mf-shared.ts provides it as the `@termpaste/contracts/sso` shared singleton; its imports of the rest of
 * the package (auth.ts, zod) are the modules the `@termpaste/contracts` singleton holds.
 */
export * from '../../../../contracts/dist/sso.js';
