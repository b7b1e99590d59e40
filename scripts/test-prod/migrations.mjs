// The worker and both APIs started together on the empty database (stack.mjs): the migrations ran once,
// in one of them, while the others waited for the advisory lock and then found nothing to do; and the
// built CLI (the image's `termpaste`) says the database is up to date.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { root } from '../../harness/paths.mjs';
import { assert } from '../../harness/wait.mjs';

const run = promisify(execFile);

/** The messages of a process's JSON log lines (other lines skipped). */
function messages(output) {
  return output.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line);
      return typeof entry.msg === 'string' ? [entry.msg] : [];
    } catch {
      return [];
    }
  });
}

export const migrationsOnce = {
  name: 'a worker and two APIs started together on an empty database migrate it once',
  async run(env) {
    const { MIGRATIONS } = await import(
      pathToFileURL(join(root, 'backend/dist/infra/database/migrations/index.js')).href
    );
    const { rows } = await env.db.query('SELECT name, count(*)::int AS times FROM migrations GROUP BY name');
    const twice = rows.filter((row) => row.times !== 1).map((row) => row.name);
    assert(twice.length === 0, `migrations applied more than once: ${twice.join(', ')}`);
    assert(
      rows.length === MIGRATIONS.length,
      `${rows.length} migrations applied, the build has ${MIGRATIONS.length}`,
    );

    const procs = [env.worker, ...env.apis.map((api) => api.proc)];
    const said = procs.map((proc) => ({
      name: proc.name,
      applied: messages(proc.output).filter((msg) => msg.startsWith('Applied ')),
      upToDate: messages(proc.output).includes('Database up to date'),
    }));
    const migrators = said.filter((proc) => proc.applied.length > 0);
    assert(
      migrators.length === 1 && migrators[0].applied[0].startsWith(`Applied ${MIGRATIONS.length} migrations`),
      `one process should log "Applied ${MIGRATIONS.length} migrations", got ${JSON.stringify(said)}`,
    );
    const others = said.filter((proc) => proc !== migrators[0]);
    assert(
      others.every((proc) => proc.upToDate),
      `the others should log "Database up to date", got ${JSON.stringify(said)}`,
    );

    const check = await run(process.execPath, [join(root, 'backend/dist/cli.js'), 'migrate', '--check'], {
      env: env.backendEnv,
    });
    assert(
      check.stdout.trim() === 'The database is up to date',
      `termpaste migrate --check said ${JSON.stringify(check)}`,
    );
    return `${migrators[0].name} applied ${MIGRATIONS.length}; ${others.map((proc) => proc.name).join(', ')} found them done`;
  },
};
