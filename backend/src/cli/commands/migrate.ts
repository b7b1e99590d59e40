import { migratedLine, migrateUnderLock, pendingMigrations } from '../../infra/database/migrate.js';
import { type CliCommand, EXIT } from '../command.js';

export const migrate: CliCommand = {
  name: 'migrate',
  usage: '[--check]',
  summary: 'apply the pending database migrations (--check: only say whether any are pending)',
  help: [
    'Takes the same lock as the API and the worker do at start-up, so it is safe while they start.',
    '--check exits 0 when the database is up to date and 1, listing them, when migrations are pending.',
    'Examples: termpaste migrate --check && echo up to date',
    '          termpaste migrate            (with MIGRATE_ON_START=off, before rolling the new version)',
  ],
  options: { check: 'boolean' },
  async run({ options }, ctx) {
    const db = await ctx.dataSource('as-is');
    if (options.check) {
      const pending = await pendingMigrations(db);
      if (pending.length === 0) {
        ctx.out('The database is up to date');
        return EXIT.ok;
      }
      ctx.err(
        `The database is behind: ${pending.length} pending migration${pending.length === 1 ? '' : 's'}\n` +
          pending.map((name) => `  ${name}`).join('\n'),
      );
      return EXIT.failed;
    }
    ctx.out(migratedLine(await migrateUnderLock(db, { log: ctx.out })));
    return EXIT.ok;
  },
};
