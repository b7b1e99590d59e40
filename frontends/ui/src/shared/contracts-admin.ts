/** `@termpaste/contracts/admin`, shared apart: only the admin remote reads it (docs/frontend.md). */
export * from '../../../../contracts/dist/admin.js';
