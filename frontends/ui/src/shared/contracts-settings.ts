/** `@termpaste/contracts/settings`, shared apart: only the settings remote reads it (docs/frontend.md). */
export * from '../../../../contracts/dist/settings.js';
