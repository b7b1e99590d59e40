import { Body, Controller, ForbiddenException, Get, Module, Post } from '@nestjs/common';
import { errorBodySchema, SERVICE_MESSAGES } from '@termpaste/contracts';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DATABASE_RETRY_AFTER_SECONDS } from '../src/common/database-unavailable.js';
import { freePort } from '../src/infra/free-port.js';
import { z } from 'zod';
import { ZodValidationPipe } from '../src/common/zod-validation.pipe.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { waitFor } from './support/wait-for.js';

const noteSchema = z.object({ title: z.string().min(1), tags: z.array(z.string()).max(2) });

/** Test-only routes that fail in each way the error filter must handle. */
@Controller('api/test')
class FailingController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('unexpected')
  unexpected(): never {
    throw new Error('kaboom: the secret detail');
  }

  @Get('sql')
  async sql(): Promise<unknown> {
    return this.dataSource.query('SELECT secret_column FROM no_such_table');
  }

  /** A connection the server cuts (57P01 admin_shutdown, as a fast shutdown or a restart does). */
  @Get('db-cut')
  async dbCut(): Promise<unknown> {
    return this.dataSource.query('SELECT pg_terminate_backend(pg_backend_pid())');
  }

  /** A transaction whose connection dies between two of its queries (TypeORM lets the connection go). */
  @Get('db-cut-mid-transaction')
  async dbCutMidTransaction(): Promise<unknown> {
    return this.dataSource.transaction(async (manager) => {
      const [{ pid }] = (await manager.query('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
      await this.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
      // pg's 'error' event for the cut connection, then TypeORM's release of it.
      await waitFor('the connection released', () => manager.queryRunner?.isReleased, 5000);
      return manager.query('SELECT 1');
    });
  }

  /** A database server that is not there (ECONNREFUSED). */
  @Get('db-refused')
  async dbRefused(): Promise<unknown> {
    const client = new Client({ host: '127.0.0.1', port: await freePort(), connectionTimeoutMillis: 2000 });
    await client.connect();
    return client.end();
  }

  @Get('forbidden')
  forbidden(): never {
    throw new ForbiddenException('Not your paste');
  }

  @Get('zod')
  zod(): unknown {
    return z.object({ page: z.number() }).parse({ page: 'two' });
  }

  @Post('notes')
  create(@Body(new ZodValidationPipe(noteSchema)) body: z.infer<typeof noteSchema>): unknown {
    return body;
  }
}

@Module({ controllers: [FailingController] })
class FailingModule {}

describe('error filter', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ imports: [FailingModule] });
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers an unknown /api route with a JSON 404', async () => {
    const res = await t.http
      .get('/api/nope')
      .expect(404)
      .expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ statusCode: 404, message: 'Cannot GET /api/nope' });
  });

  it('answers any method on an unknown /api route with a JSON 404', async () => {
    const res = await t.http.delete('/api/nope/deeper').expect(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Cannot DELETE /api/nope/deeper' });
  });

  it('answers a malformed JSON body with a 400 that says so', async () => {
    const res = await t.http
      .post('/api/test/notes')
      .set('Content-Type', 'application/json')
      .send('{"title": "unterminated')
      .expect(400);
    expect(errorBodySchema.parse(res.body).statusCode).toBe(400);
    expect(res.body.message).toMatch(/^Malformed JSON in request body: /);
  });

  it('answers a body over the limit with a 413', async () => {
    const res = await t.http
      .post('/api/test/notes')
      .send({ title: 'x'.repeat(200 * 1024), tags: [] })
      .expect(413);
    expect(res.body).toEqual({ statusCode: 413, message: 'Request body is too large (limit 102400 bytes)' });
  });

  it('keeps the message of an HttpException', async () => {
    const res = await t.http.get('/api/test/forbidden').expect(403);
    expect(res.body).toEqual({ statusCode: 403, message: 'Not your paste' });
  });

  it('names the bad field when the validation pipe refuses a body', async () => {
    const res = await t.http
      .post('/api/test/notes')
      .set('Origin', t.url)
      .send({ title: '', tags: ['a', 'b', 'c'] })
      .expect(400);
    expect(errorBodySchema.parse(res.body).message).toMatch(/^title: .+; tags: .+/);
  });

  it('passes a valid body through the validation pipe', async () => {
    await t.http
      .post('/api/test/notes')
      .set('Origin', t.url)
      .send({ title: 'hello', tags: ['a'] })
      .expect(201, { title: 'hello', tags: ['a'] });
  });

  it('turns a ZodError thrown anywhere into a readable 400', async () => {
    const res = await t.http.get('/api/test/zod').expect(400);
    expect(res.body.statusCode).toBe(400);
    expect(res.body.message).toMatch(/^page: /);
  });

  it('answers an unexpected error with a 500 and an id, and logs the stack under that id', async () => {
    const res = await t.http.get('/api/test/unexpected').expect(500);
    expect(res.body).toEqual({
      statusCode: 500,
      message: expect.stringMatching(/^Internal error \(id [0-9a-f]{8}\)$/),
    });
    expect(res.text).not.toMatch(/kaboom|secret|at |\.ts/);

    const id = /id ([0-9a-f]{8})/.exec(res.body.message)![1]!;
    const logged = t.logs.entries.find((entry) => entry.level === 'error' && entry.message.includes(id));
    expect(logged?.message).toContain('GET /api/test/unexpected');
    expect(logged?.details.join('\n')).toMatch(/Error: kaboom: the secret detail\n\s+at /);
  });

  it.each(['db-cut', 'db-cut-mid-transaction', 'db-refused'])(
    'answers 503 with Retry-After, never 500, when the database cannot be reached (%s)',
    async (route) => {
      const res = await t.http.get(`/api/test/${route}`).expect(503);
      expect(res.body).toEqual({ statusCode: 503, message: SERVICE_MESSAGES.databaseUnavailable });
      expect(res.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(t.logs.text()).toMatch(/The database is unreachable \(.+\): \d+ request\(s\) answered 503/);
    },
  );

  it('never sends SQL or database errors to the client', async () => {
    const res = await t.http.get('/api/test/sql').expect(500);
    expect(res.body.message).toMatch(/^Internal error \(id [0-9a-f]{8}\)$/);
    expect(res.text).not.toMatch(/secret_column|no_such_table|SELECT|relation/i);
    expect(t.logs.text()).toContain('no_such_table');
  });
});
