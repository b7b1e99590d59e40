import {
  API,
  maskSecret,
  SECRET_FINDINGS_MAX,
  type SecretFindingsBody,
  secretFindingsBodySchema,
  SECRETS_MESSAGES,
} from '@termpaste/contracts';
import { type Browser, registered } from './support/accounts.js';
import { AWS_ACCESS_KEY_ID, SECRET_SAMPLES } from './support/secret-samples.js';
import { createTestApp, type TestApp } from './support/test-app.js';

type Member = Awaited<ReturnType<typeof registered>>;

/** A paste that holds an AWS access key ID on its third line, after two spaces. */
const LEAKY = `# deploy notes\n\n  export AWS_ACCESS_KEY_ID=${AWS_ACCESS_KEY_ID}\n`;
const LEAKY_FINDING = {
  rule: 'aws:AWSAccessKeyID',
  line: 3,
  column: 3 + 'export AWS_ACCESS_KEY_ID='.length,
  masked: maskSecret(AWS_ACCESS_KEY_ID),
};

/** A 422 body, checked against its contract with no key beyond it, that never holds `secret`. */
function refusal(res: { body: unknown; text: string }, ...secrets: string[]): SecretFindingsBody {
  for (const secret of secrets) expect(res.text).not.toContain(secret);
  return secretFindingsBodySchema.strict().parse(res.body);
}

describe('the warning before a secret is published', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let threadId: number;

  beforeAll(async () => {
    t = await createTestApp();
    await registered(t); // the owner: the staff a support request goes to
    alice = await registered(t);
    bob = await registered(t);
    const res = await alice.browser.post(API.threads).send({ title: 'host', content: 'hello' }).expect(201);
    threadId = (res.body as { id: number }).id;
  });

  afterAll(async () => {
    await t.close();
  });

  const count = async (sql: string): Promise<number> =>
    ((await t.dataSource.query(sql)) as Array<{ n: number }>)[0]!.n;

  /** Each route that stores a text: how to call it with `content`, and how many of its rows exist. */
  const routes: Array<{
    name: string;
    path: () => string;
    body: (content: string) => object;
    rows: () => Promise<number>;
    from: () => Browser;
  }> = [
    {
      name: 'POST /api/threads',
      path: () => API.threads,
      body: (content) => ({ title: 'Deploy notes', content }),
      rows: () => count('SELECT count(*)::int AS n FROM threads'),
      from: () => alice.browser,
    },
    {
      name: 'POST /api/threads/{id}/replies',
      path: () => API.threadReplies(threadId),
      body: (content) => ({ content }),
      rows: () => count('SELECT count(*)::int AS n FROM replies'),
      from: () => bob.browser,
    },
    {
      name: 'POST /api/messages',
      path: () => API.messages,
      body: (content) => ({ recipientEmail: bob.account.email, subject: 'keys', content }),
      rows: () => count('SELECT count(*)::int AS n FROM private_messages'),
      from: () => alice.browser,
    },
    {
      name: 'POST /api/support',
      path: () => API.support,
      body: (content) => ({ subject: 'keys', content }),
      rows: () => count('SELECT count(*)::int AS n FROM private_messages'),
      from: () => bob.browser,
    },
  ];

  describe.each(routes)('$name', (route) => {
    it('422 with the findings, masked, and nothing stored', async () => {
      const before = await route.rows();
      const res = await route.from().post(route.path()).send(route.body(LEAKY)).expect(422);
      expect(refusal(res, AWS_ACCESS_KEY_ID)).toEqual({
        statusCode: 422,
        message: SECRETS_MESSAGES.found(1),
        findings: [LEAKY_FINDING],
      });
      expect(await route.rows()).toBe(before);
    });

    it('stores it with ?allowSecrets=true, or allowSecrets: true in the body', async () => {
      const before = await route.rows();
      await route
        .from()
        .post(route.path())
        .query({ allowSecrets: 'true' })
        .send(route.body(LEAKY))
        .expect(201);
      await route
        .from()
        .post(route.path())
        .send({ ...route.body(LEAKY), allowSecrets: true })
        .expect(201);
      expect(await route.rows()).toBeGreaterThanOrEqual(before + 2);
    });

    it('still scans with allowSecrets false', async () => {
      await route
        .from()
        .post(route.path())
        .query({ allowSecrets: 'false' })
        .send(route.body(LEAKY))
        .expect(422);
      await route
        .from()
        .post(route.path())
        .send({ ...route.body(LEAKY), allowSecrets: false })
        .expect(422);
    });

    it('400 for an allowSecrets that is not true or false', async () => {
      for (const value of ['yes', '1', '']) {
        const res = await route
          .from()
          .post(route.path())
          .query({ allowSecrets: value })
          .send(route.body(LEAKY));
        expect([res.status, res.body]).toEqual([
          400,
          { statusCode: 400, message: SECRETS_MESSAGES.allowSecretsQuery },
        ]);
      }
      for (const value of ['true', 1, null]) {
        const res = await route
          .from()
          .post(route.path())
          .send({ ...route.body(LEAKY), allowSecrets: value });
        expect([res.status, res.body]).toEqual([
          400,
          { statusCode: 400, message: SECRETS_MESSAGES.allowSecretsBody },
        ]);
      }
    });

    it('validates the body first: a 400 before any 422', async () => {
      const res = await route
        .from()
        .post(route.path())
        .send({ ...route.body(LEAKY), content: 42 })
        .expect(400);
      expect(res.text).not.toContain(AWS_ACCESS_KEY_ID);
    });

    it('stores ordinary text as before', async () => {
      await route
        .from()
        .post(route.path())
        .send(route.body('const aws = new S3Client({ region: "eu-west-1" });\nSee docs.'))
        .expect(201);
    });
  });

  describe('POST /api/pastes (the terminal: the query parameter only)', () => {
    const pastes = () => count('SELECT count(*)::int AS n FROM threads');

    it('422 as text for curl: each finding, and how to publish anyway; nothing stored', async () => {
      const before = await pastes();
      const res = await alice.browser.post(API.pastes).type('text/plain').send(LEAKY).expect(422);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).not.toContain(AWS_ACCESS_KEY_ID);
      expect(res.text).toBe(
        `${SECRETS_MESSAGES.found(1)}\n` +
          `  line 3, column 28: AWS access key ID (aws:AWSAccessKeyID) ${LEAKY_FINDING.masked}\n` +
          'To publish anyway, add ?allowSecrets=true to the URL (termpaste --allow-secrets).\n',
      );
      expect(await pastes()).toBe(before);
    });

    it('422 as JSON when JSON is preferred', async () => {
      const res = await alice.browser
        .post(API.pastes)
        .type('text/plain')
        .set('Accept', 'application/json')
        .send(LEAKY)
        .expect(422);
      expect(refusal(res, AWS_ACCESS_KEY_ID)).toEqual({
        statusCode: 422,
        message: SECRETS_MESSAGES.found(1),
        findings: [LEAKY_FINDING],
      });
    });

    it('publishes with ?allowSecrets=true, not with a JSON body field', async () => {
      const before = await pastes();
      await alice.browser
        .post(API.pastes)
        .query({ allowSecrets: 'true' })
        .type('text/plain')
        .send(LEAKY)
        .expect(201);
      await alice.browser
        .post(API.pastes)
        .send({ title: 'json', content: LEAKY, allowSecrets: true })
        .expect(422);
      expect(await pastes()).toBe(before + 1);
    });

    it('400 for an allowSecrets that is not true or false', async () => {
      const res = await alice.browser
        .post(API.pastes)
        .query({ allowSecrets: 'yes' })
        .type('text/plain')
        .send(LEAKY)
        .expect(400);
      expect(res.text).toContain(SECRETS_MESSAGES.allowSecretsQuery);
    });
  });

  it.each(SECRET_SAMPLES.map((sample) => [sample.family, sample.rule, sample] as const))(
    'stops a %s secret (%s) and never answers it',
    async (_family, rule, sample) => {
      const res = await alice.browser
        .post(API.threads)
        .send({ title: 'config', content: `config:\n${sample.text}\n` })
        .expect(422);
      const body = refusal(res, sample.value);
      expect(body.findings).toEqual([
        { rule, line: 2, column: 1 + sample.text.indexOf(sample.value), masked: maskSecret(sample.value) },
      ]);
    },
  );

  it(`lists at most ${SECRET_FINDINGS_MAX} findings and counts them all`, async () => {
    const content = Array.from({ length: SECRET_FINDINGS_MAX + 5 }, () => `key ${AWS_ACCESS_KEY_ID}`).join(
      '\n',
    );
    const res = await alice.browser.post(API.threads).send({ title: 'many', content }).expect(422);
    const body = refusal(res, AWS_ACCESS_KEY_ID);
    expect(body.message).toBe(SECRETS_MESSAGES.found(SECRET_FINDINGS_MAX + 5));
    expect(body.findings).toHaveLength(SECRET_FINDINGS_MAX);
    expect(body.findings.at(-1)!.line).toBe(SECRET_FINDINGS_MAX);
  });

  it('does not scan chat (not among the texts the warning covers)', async () => {
    // Chat goes over the live socket; its HTTP post is the popover's. Left alone on purpose.
    await alice.browser
      .post(API.chatMessages)
      .send({ content: `key ${AWS_ACCESS_KEY_ID}` })
      .expect(201);
  });

  it('never answered with a 500', () => {
    expect(t.logs.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
