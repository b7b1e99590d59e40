import { z } from 'zod';

/**
 * In browsers zod must not try `new Function` (its JIT for object schemas): the Content-Security-Policy
 * allows no eval, and browsers report even a caught attempt as a violation. Imported first by index.ts,
 * before any schema exists (zod probes when the first object schema is built). Servers keep the JIT.
 */
if (typeof (globalThis as { document?: unknown }).document !== 'undefined') z.config({ jitless: true });
