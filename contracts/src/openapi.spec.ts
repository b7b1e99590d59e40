import { AUDIT_ACTIONS } from './admin.js';
import { API_OPERATIONS, API_TAGS, buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
import { API } from './routes.js';

/** The first path parameter of API's functions that take none of `{id}`. */
const FIRST_PARAMETER: Record<string, string> = {
  upload: '{key}',
  ssoStart: '{provider}',
  ssoCallback: '{provider}',
  feedTag: '{name}',
  tag: '{name}',
  language: '{name}',
  adminTag: '{name}',
  adminTagMerge: '{name}',
  tagWatch: '{name}',
  bookmark: '{kind}',
};
/** The second, where it is not a version's number `{n}`. */
const SECOND_PARAMETER: Record<string, string> = { bookmark: '{id}', threadSuggestionApply: '{replyId}' };

/**
 * Each path of API as OpenAPI writes it: `{id}` for an id, `{key}` for a stored object's key,
 * `{provider}` for a sign-in provider, `{name}` for a tag or a language, `{kind}` for what a bookmark
 * holds, `{n}` for a version's number.
 */
const apiPaths = Object.entries(API).map(([name, value]) => ({
  name,
  path:
    typeof value === 'function'
      ? (value as (first: string, n: string) => string)(
          FIRST_PARAMETER[name] ?? '{id}',
          SECOND_PARAMETER[name] ?? '{n}',
        )
      : value,
}));

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

describe('the OpenAPI route table', () => {
  it.each(apiPaths)('documents API.$name ($path)', ({ path }) => {
    const documented = API_OPERATIONS.filter((op) => op.path === path);
    expect(documented.length).toBeGreaterThan(0);
  });

  it('documents no path that API does not name', () => {
    const known = apiPaths.map(({ path }) => path);
    for (const op of API_OPERATIONS) {
      expect(known).toContain(op.path);
    }
  });

  it('has one operation per method and path, each with its own operationId and a known tag', () => {
    const keys = API_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = API_OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of API_OPERATIONS) expect(Object.keys(API_TAGS)).toContain(op.tag);
  });
});

describe('buildOpenApiDocument', () => {
  let doc: OpenApiDocument;

  beforeAll(() => {
    doc = buildOpenApiDocument({
      productName: 'Termpaste',
      version: '1.2.3',
      serverUrl: 'https://forum.example',
    });
  });

  it('is an OpenAPI 3.1 document about this installation', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Termpaste API', version: '1.2.3' });
    expect(doc.servers).toEqual([{ url: 'https://forum.example' }]);
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
    // Plain JSON: it is served as is.
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('has every operation of the table, each with a success response', () => {
    for (const op of API_OPERATIONS) {
      const operation = doc.paths[op.path]?.[op.method] as { responses: Record<string, unknown> } | undefined;
      expect(operation).toBeDefined();
      const statuses = Object.keys(operation!.responses).map(Number);
      expect(statuses.some((status) => status >= 200 && status < 400)).toBe(true);
      if (op.auth !== 'none') expect(statuses).toContain(401);
      if (op.auth === 'admin') expect(statuses).toContain(403);
    }
  });

  it('names each path parameter', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      for (const operation of Object.values(operations)) {
        const inPath = ((operation.parameters ?? []) as { in: string; name: string }[])
          .filter((param) => param.in === 'path')
          .map((param) => param.name);
        expect(inPath).toEqual(names);
      }
    }
  });

  it('refers only to components that exist, and JSON Schema without $schema or $id inside', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(doc.components.schemas).toHaveProperty(ref.split('/').pop()!);
    }
    const text = JSON.stringify(doc.components.schemas);
    expect(text).not.toContain('"$schema"');
    expect(text).not.toContain('"$id"');
  });

  it('describes request bodies as the client sends them, responses as the server sends them', () => {
    const schemas = doc.components.schemas;
    // z.preprocess and transforms: the input side.
    expect(schemas.CreateThreadBody).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', maxLength: 200 }, content: { type: 'string' } },
      required: ['title', 'content'],
    });
    expect(schemas.UpdateProfileBody).toMatchObject({ type: 'object' });
    expect(schemas.UpdateProfileBody).not.toHaveProperty('required');
    expect(schemas.LoginBody).toMatchObject({ required: ['usernameOrEmail', 'password'] });
    expect(schemas.ThreadCard).toMatchObject({
      properties: { author: { anyOf: [{ $ref: '#/components/schemas/PublicAuthor' }, { type: 'null' }] } },
    });
    expect(schemas.Error).toMatchObject({ required: ['statusCode', 'message'] });
    expect(doc.paths[API.threadsRecent]?.get).toMatchObject({
      responses: {
        '200': {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/RecentThreadsPage' } } },
        },
      },
    });
  });

  /** The query parameters the document gives an operation: name, required, schema (description aside). */
  function queryOf(operationId: string) {
    const op = API_OPERATIONS.find((candidate) => candidate.operationId === operationId)!;
    const parameters = (doc.paths[op.path]?.[op.method]?.parameters ?? []) as {
      name: string;
      in: string;
      required: boolean;
      description?: string;
      schema: unknown;
    }[];
    return parameters.filter((param) => param.in === 'query');
  }

  it('documents the query strings as clients have always seen them: names, required, types', () => {
    const cursor = ['cursor', false, { type: 'string' }];
    const filter = ['q', false, { type: 'string', maxLength: 64 }];
    const expected: Record<string, unknown[][]> = {
      getRecentThreads: [cursor],
      search: [
        ['q', true, { type: 'string', minLength: 1, maxLength: 200 }],
        ['page', false, { type: 'string', pattern: '^\\d{1,6}$' }],
      ],
      listUsers: [filter, cursor],
      getUserReputation: [cursor],
      listInbox: [cursor],
      listSentMessages: [cursor],
      listNotifications: [cursor],
      adminListUsers: [filter, cursor],
      getAuditLog: [['action', false, { type: 'string', enum: [...AUDIT_ACTIONS] }], filter, cursor],
    };
    const documented = Object.fromEntries(
      Object.keys(expected).map((operationId) => [
        operationId,
        queryOf(operationId).map(({ name, required, schema }) => [name, required, schema]),
      ]),
    );
    expect(documented).toEqual(expected);
  });

  it("derives each query parameter from the operation's query schema, described", () => {
    for (const op of API_OPERATIONS) {
      const parameters = queryOf(op.operationId);
      const shape = op.query?.shape ?? {};
      // One parameter per field, in order; required exactly when the schema refuses a request without it.
      expect([op.operationId, parameters.map((param) => param.name)]).toEqual([
        op.operationId,
        Object.keys(shape),
      ]);
      for (const param of parameters) {
        const absentAccepted = shape[param.name]!.safeParse(undefined).success;
        expect([op.operationId, param.name, param.required]).toEqual([
          op.operationId,
          param.name,
          !absentAccepted,
        ]);
        expect(param.description).toMatch(/^[A-Z].{8,}/);
      }
    }
  });

  it('marks public routes as needing no session, the others the session cookie', () => {
    expect(doc.paths[API.threadsRecent]?.get).toMatchObject({ security: [] });
    expect(doc.paths[API.currentUser]?.get).toMatchObject({ security: [{ session: [] }, { bearer: [] }] });
    expect(doc.paths[API.notifications]?.get).toMatchObject({
      security: [{ session: [] }, { bearer: ['private:read'] }],
    });
    expect(doc.paths[API.users]?.get).toMatchObject({
      security: [{ session: [] }, { bearer: ['read'] }],
    });
    expect(doc.paths[API.threads]?.post).toMatchObject({
      security: [{ session: [] }, { bearer: ['pastes:write'] }],
    });
    expect(doc.paths[API.userTokens]?.get).toMatchObject({ security: [{ session: [] }] });
    expect(doc.paths[API.adminUsers]?.get).toMatchObject({ security: [{ session: [] }] });
    expect(doc.paths[API.userProfile]?.put).toMatchObject({ security: [{ session: [] }] });
    expect(doc.components.securitySchemes).toHaveProperty(
      'bearer',
      expect.objectContaining({ scheme: 'bearer' }),
    );
  });
});
