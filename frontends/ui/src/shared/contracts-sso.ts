/** `@termpaste/contracts/sso`, shared apart: the sign-in pages and the settings remote read it (docs/frontend.md). */
export * from '../../../../contracts/dist/sso.js';
