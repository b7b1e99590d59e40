/** `@termpaste/contracts/tokens`, shared apart: only the settings remote reads it (docs/frontend.md). */
export * from '../../../../contracts/dist/tokens.js';
