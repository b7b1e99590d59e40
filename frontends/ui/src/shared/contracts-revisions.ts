/** `@termpaste/contracts/revisions`, shared apart: the paste and revisions screens read it (docs/frontend.md). */
export * from '../../../../contracts/dist/revisions.js';
