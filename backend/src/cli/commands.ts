import type { CliCommand } from './command.js';
import { makeAdmin, revokeAdmin } from './commands/admins.js';
import { backup, restore } from './commands/backup.js';
import { migrate } from './commands/migrate.js';
import { setupCode } from './commands/setup-code.js';
import { ban, unban } from './commands/suspensions.js';
import { createUser, resetPassword } from './commands/users.js';

/**
 * Every command of `termpaste <command>` (`npm run admin -- <command>`), in the order --help lists them.
 * A new command: a file under commands/ exporting a CliCommand, and its line here.
 */
export const COMMANDS: readonly CliCommand[] = [
  createUser,
  resetPassword,
  ban,
  unban,
  makeAdmin,
  revokeAdmin,
  setupCode,
  migrate,
  backup,
  restore,
];
