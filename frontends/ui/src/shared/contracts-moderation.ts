/**
 * @termpaste/contracts/moderation as the browser shares it, apart from the `@termpaste/contracts`
 * singleton: flags, the review queue and suspensions, read by the flag dialog and the admin remote, not
 * by a first visit's home. mf-shared.ts provides it as the `@termpaste/contracts/moderation` singleton.
 */
export * from '../../../../contracts/dist/moderation.js';
