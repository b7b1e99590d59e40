/** `@termpaste/contracts/own-posts`, shared apart: the paste's screens and the trash read it (docs/frontend.md). */
export * from '../../../../contracts/dist/own-posts.js';
