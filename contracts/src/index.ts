// First: configures zod before any schema is built.
import './zod-config.js';
export * from './limits.js';
export * from './routes.js';
export * from './ranks.js';
export * from './texts.js';
export * from './text.js';
export * from './schemas.js';
export * from './auth.js';
export * from './verification.js';
export * from './forum.js';
export * from './messaging.js';
export * from './settings.js';
export * from './tokens.js';
export * from './admin.js';
export * from './permissions.js';
export * from './reputation.js';
export * from './queries.js';
export * from './openapi.js';
