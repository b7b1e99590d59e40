/** `@termpaste/contracts/reputation`, shared apart: only the profile screen reads it (docs/frontend.md). */
export * from '../../../../contracts/dist/reputation.js';
