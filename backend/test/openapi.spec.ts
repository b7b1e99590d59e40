import { createRequire } from 'node:module';
import { API, API_OPERATIONS, buildOpenApiDocument, type OpenApiDocument } from '@termpaste/contracts';
import type { Response } from 'supertest';
import { type Browser, registered } from './support/accounts.js';
import { createTestApp, type TestApp } from './support/test-app.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** The operation the table documents for this operationId. */
function operation(operationId: string) {
  const op = API_OPERATIONS.find((candidate) => candidate.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
}

describe('the API docs', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp({ env: { PRODUCT_NAME: 'Pastebin of Doom' } });
    const res = await t.http
      .get(API.openApi)
      .expect(200)
      .expect('Content-Type', /application\/json/);
    doc = res.body as OpenApiDocument;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('serves the OpenAPI document generated from the contracts', () => {
    expect(doc).toEqual(
      JSON.parse(
        JSON.stringify(
          buildOpenApiDocument({ productName: 'Pastebin of Doom', version, serverUrl: t.config.publicUrl }),
        ),
      ),
    );
    expect(doc.info.title).toBe('Pastebin of Doom API');
  });

  describe('documents what the routes answer', () => {
    let admin: Browser;
    let member: Browser;
    let memberName: string;
    let threadId: number;

    /**
     * The response has the documented status, the document names it, and the documented schema parses the
     * body to itself (nothing missing, nothing undocumented: zod would drop an unknown field).
     */
    function expectDocumented(operationId: string, res: Response): void {
      const op = operation(operationId);
      const [success] = op.responses;
      expect(res.status).toBe(success.status);
      const documented = doc.paths[op.path]?.[op.method] as
        { responses: Record<string, unknown> } | undefined;
      expect(documented?.responses).toHaveProperty(String(success.status));
      expect(success.schema).toBeDefined();
      expect(success.schema!.parse(res.body)).toEqual(res.body);
    }

    beforeAll(async () => {
      // The first account registered is the owner, an admin.
      ({ browser: admin } = await registered(t));
      const registeredUser = await registered(t);
      member = registeredUser.browser;
      memberName = registeredUser.account.username;
    });

    it('for a visitor', async () => {
      expectDocumented('getHealth', await t.http.get(API.health));
      expectDocumented('getSite', await t.http.get(API.site));
      expectDocumented('getRecentThreads', await t.http.get(API.threadsRecent));
      expectDocumented('getFeaturedThreads', await t.http.get(API.threadsFeatured));
    });

    it('for a member', async () => {
      const created = await member.post(API.threads).send({ title: 'Documented', content: 'echo "hi"' });
      expectDocumented('createThread', created);
      threadId = (created.body as { id: number }).id;
      expectDocumented(
        'createReply',
        await admin.post(API.threadReplies(threadId)).send({ content: `@${memberName} hi` }),
      );
      expectDocumented('vote', await admin.post(API.votes).send({ threadId, value: 1 }));
      expectDocumented('getCurrentUser', await member.get(API.currentUser));
      expectDocumented('getThread', await member.get(API.thread(threadId)));
      expectDocumented('getRecentThreads', await t.http.get(API.threadsRecent));
      expectDocumented('search', await t.http.get(API.search).query({ q: 'documented' }));
      expectDocumented('listUsers', await member.get(API.users));
      expectDocumented('getUser', await t.http.get(API.user((await member.get(API.currentUser)).body.id)));
      expectDocumented(
        'sendMessage',
        await admin.post(API.messages).send({ recipientEmail: memberName, subject: 'Hi', content: 'Hello' }),
      );
      expectDocumented('listInbox', await member.get(API.messages));
      expectDocumented('listNotifications', await member.get(API.notifications));
      expectDocumented('getUnreadNotificationCount', await member.get(API.notificationsUnreadCount));
      expectDocumented('markAllNotificationsRead', await member.post(API.notificationsMarkAllRead));
      expectDocumented(
        'postChatMessage',
        await member.post(API.chatMessages).send({ content: 'hello chat' }),
      );
      expectDocumented('getChat', await member.get(API.chat));
      expectDocumented('updateProfile', await member.put(API.userProfile).send({ bio: 'Documented' }));
      expectDocumented('createUploadUrl', await member.post(API.objectsUpload));
    });

    it('for an admin', async () => {
      expectDocumented('pinThread', await admin.post(API.adminThreadPin(threadId)));
      expectDocumented('adminListUsers', await admin.get(API.adminUsers));
      expectDocumented('getAuditLog', await admin.get(API.adminAudit));
      const doomed = await admin.post(API.threads).send({ title: 'Doomed', content: 'gone' }).expect(201);
      await admin.delete(API.adminThread(doomed.body.id)).expect(200);
      expectDocumented('getTrash', await admin.get(API.adminTrash));
      expectDocumented('restoreThread', await admin.post(API.adminThreadRestore(doomed.body.id)));
    });

    it('for errors, in the one error shape', async () => {
      const res = await t.http.get(API.currentUser).expect(401);
      const documented = doc.paths[API.currentUser]?.get as { responses: Record<string, unknown> };
      expect(documented.responses['401']).toMatchObject({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      });
      expect(Object.keys(res.body as object).sort()).toEqual(
        Object.keys(doc.components.schemas.Error!.properties as object).sort(),
      );
    });
  });

  it('shows the document in a page whose scripts and styles load from our origin', async () => {
    const res = await t.http
      .get(API.docs)
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(res.text).toContain('<title>Pastebin of Doom API</title>');
    const assets = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url!);
    expect(assets.filter((url) => url.endsWith('.js'))).toHaveLength(2);
    for (const url of assets) {
      expect(url.startsWith(`${API.docs}/`)).toBe(true);
      const asset = await t.http.get(url).expect(200);
      if (url.endsWith('.js')) expect(asset.headers['content-type']).toMatch(/javascript/);
      if (url.endsWith('.css')) expect(asset.headers['content-type']).toMatch(/text\/css/);
    }
    const init = await t.http.get(assets.find((url) => url.endsWith('init.js'))!).expect(200);
    expect(init.text).toContain(JSON.stringify(API.openApi));
    // No inline script: the Content-Security-Policy would block it.
    expect(res.text).not.toMatch(/<script>(?!<\/script>)/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });
});
