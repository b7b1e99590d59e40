/** `@termpaste/contracts/moderation`, shared apart: the flag dialog and the admin remote read it (docs/frontend.md). */
export * from '../../../../contracts/dist/moderation.js';
