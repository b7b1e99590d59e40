/**
 * @termpaste/contracts as the browser needs it: everything but openapi.ts (the OpenAPI document the
 * backend serves, and the JSON-schema code of zod it calls), queries.ts (the backend's parsing of
 * query strings) and pastes.ts (the intake of `POST /api/pastes`, for curl and the CLI: no screen reads
 * it, and it would be in every first visit's JavaScript). mf-shared.ts provides this module as the
 * `@termpaste/contracts` shared singleton. Read from the package's files, since an import of
 * `@termpaste/contracts` here would be the shared module asking for itself. sso.ts (read by the sign-in
 * pages, visitors', and the settings remote), settings.ts, tokens.ts and account.ts (the settings remote), admin.ts
 * and permissions.ts (the admin remote), revisions.ts (the forum's paste and revisions screens), reputation.ts (its profile screen), moderation.ts (the flag dialog and the admin remote) are
 * shared apart, each as `@termpaste/contracts/<file>`
 * (contracts-<file>.ts), fetched with the first screen that imports it. subsets.spec.ts fails when
 * the package's index lists a file this one lacks, or when an app imports a name it does not export.
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
export * from '../../../../contracts/dist/forum.js';
export * from '../../../../contracts/dist/live.js';
export * from '../../../../contracts/dist/messaging.js';
export * from '../../../../contracts/dist/secrets.js';
export * from '../../../../contracts/dist/people.js';
