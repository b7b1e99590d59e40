/**
 * @termpaste/contracts as the browser needs it, shared as the singleton: all but the server's files and
 * the files shared apart (contracts-<file>.ts); docs/frontend.md says which and why.
 */
import '../../../../contracts/dist/zod-config.js';
export * from '../../../../contracts/dist/limits.js';
export * from '../../../../contracts/dist/routes.js';
export * from '../../../../contracts/dist/ranks.js';
export * from '../../../../contracts/dist/texts.js';
export * from '../../../../contracts/dist/text.js';
export * from '../../../../contracts/dist/schemas.js';
export * from '../../../../contracts/dist/auth.js';
export * from '../../../../contracts/dist/verification.js';
export * from '../../../../contracts/dist/visibility.js';
export * from '../../../../contracts/dist/paste-views.js';
export * from '../../../../contracts/dist/line-comments.js';
export * from '../../../../contracts/dist/tags.js';
export * from '../../../../contracts/dist/watching.js';
export * from '../../../../contracts/dist/tag-views.js';
export * from '../../../../contracts/dist/live.js';
export * from '../../../../contracts/dist/messaging.js';
export * from '../../../../contracts/dist/mail-preferences.js';
export * from '../../../../contracts/dist/signing.js';
export * from '../../../../contracts/dist/secrets.js';
export * from '../../../../contracts/dist/people.js';
export * from '../../../../contracts/dist/feeds.js';
export * from '../../../../contracts/dist/search-query.js';
