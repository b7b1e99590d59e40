export * from './limits.js';
export * from './routes.js';
export * from './ranks.js';
export * from './texts.js';
export * from './schemas.js';
export * from './auth.js';
export * from './forum.js';
export * from './messaging.js';
