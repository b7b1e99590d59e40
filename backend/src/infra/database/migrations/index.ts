import { EnableCitext1795323328934 } from './1795323328934-enable-citext.js';

/** Every migration, oldest first. Listed as classes: globs do not work with native ESM. */
export const MIGRATIONS = [EnableCitext1795323328934];
