// The Debian packages the production-mode runs need (the smoke run, the reliability suite's Redis restart):
// nginx, a PostgreSQL server and redis-server. `npm test` asks here whether they are installed.
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function executable(file) {
  if (!file) return false;
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** $override, else the first `name` on PATH, else the first of `fallbacks` that runs. */
function findBinary(override, name, fallbacks = []) {
  const candidates = [
    override,
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => dir && join(dir, name)),
    ...fallbacks,
  ];
  return candidates.find(executable);
}

/** The newest PostgreSQL's bin/ folder (initdb, postgres): $PG_BIN, else /usr/lib/postgresql/<newest>/bin. */
function findPostgresBin() {
  if (process.env.PG_BIN)
    return executable(join(process.env.PG_BIN, 'postgres')) ? process.env.PG_BIN : undefined;
  let versions;
  try {
    versions = readdirSync('/usr/lib/postgresql')
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    return undefined;
  }
  return versions
    .map((version) => join('/usr/lib/postgresql', version, 'bin'))
    .find((bin) => executable(join(bin, 'postgres')) && executable(join(bin, 'initdb')));
}

/** What the smoke run needs, and what of it is missing (with the Debian package to install). */
export function prodTools() {
  const tools = {
    nginx: findBinary(process.env.NGINX_BIN, 'nginx', ['/usr/sbin/nginx']),
    postgresBin: findPostgresBin(),
    redisServer: findBinary(process.env.REDIS_SERVER_BIN, 'redis-server', ['/usr/bin/redis-server']),
  };
  const missing = [
    !tools.nginx && 'nginx (apt-get install nginx, or set NGINX_BIN)',
    !tools.postgresBin &&
      'a PostgreSQL server (apt-get install postgresql, or set PG_BIN to its bin/ folder)',
    !tools.redisServer && 'redis-server (apt-get install redis-server, or set REDIS_SERVER_BIN)',
  ].filter(Boolean);
  return { ...tools, missing };
}
