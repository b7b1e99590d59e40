/** `@termpaste/contracts/account`, shared apart: only the settings remote's account screen reads it (docs/frontend.md). */
export * from '../../../../contracts/dist/account.js';
