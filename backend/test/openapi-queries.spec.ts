import * as contracts from '@termpaste/contracts';
import { API, API_OPERATIONS, type OpenApiDocument } from '@termpaste/contracts';
import type { z } from 'zod';
import { type HandlerQuery, handlerQueries } from './support/query-pipes.js';
import { servedRoutes } from './support/served-routes.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/** The name the contracts export a schema under (`searchQuerySchema`), for a failure one can read. */
function schemaName(schema: unknown): string {
  const found = Object.entries(contracts).find(([, value]) => value === schema);
  return found ? found[0] : '(a schema the contracts do not export)';
}

/** A query schema's parameters as `name` (required) or `name?` (the request may leave it out). */
function fieldsOf(schema: z.ZodType): string[] {
  const shape = (schema as Partial<z.ZodObject>).shape;
  if (!shape) return [`(not an object: ${schemaName(schema)})`];
  return Object.entries(shape).map(([name, field]) =>
    field.safeParse(undefined).success ? `${name}?` : name,
  );
}

const key = ({ method, path }: { method: string; path: string }) => `${method.toUpperCase()} ${path}`;

describe("the query strings the controllers parse and the OpenAPI document's query parameters", () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let handlers: HandlerQuery[];

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get(API.openApi).expect(200)).body as OpenApiDocument;
    handlers = handlerQueries(t.app);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("reads each controller route and its @Query pipes from Nest's metadata", () => {
    // The routes read here are the ones the app serves (the paths are computed as Nest does).
    const served = servedRoutes(t.app).map(key);
    expect(handlers.length).toBeGreaterThan(40);
    expect(handlers.map(key).filter((route) => !served.includes(route))).toEqual([]);
    const search = handlers.find((handler) => handler.path === API.search && handler.method === 'get');
    expect(search?.schemas.map(schemaName)).toEqual(['searchQuerySchema']);
    expect(handlers.filter((handler) => handler.schemas.length > 0).length).toBeGreaterThanOrEqual(9);
  });

  it('parses every query string with one schema of the contracts', () => {
    const unparsed = handlers
      .filter(({ schemas }) => schemas.length > 1 || schemas.includes(null))
      .map((handler) => `${key(handler)} (${handler.handler})`);
    expect(unparsed).toEqual([]);
  });

  it('documents, for every route, the parameters of the schema its controller parses the query with', () => {
    const parsed: Record<string, unknown> = {};
    const documented: Record<string, unknown> = {};
    for (const handler of handlers) {
      const route = key(handler);
      const [schema] = handler.schemas;
      parsed[route] = schema ? { schema: schemaName(schema), parameters: fieldsOf(schema) } : null;

      const op = API_OPERATIONS.find((candidate) => key(candidate) === route);
      const operation = doc.paths[handler.path]?.[handler.method as 'get'] as
        { parameters?: { name: string; in: string; required: boolean }[] } | undefined;
      const query = (operation?.parameters ?? []).filter((param) => param.in === 'query');
      documented[route] =
        op?.query || query.length > 0
          ? {
              schema: op?.query ? schemaName(op.query) : '(none)',
              parameters: query.map(({ name, required }) => (required ? name : `${name}?`)),
            }
          : null;
    }
    expect(documented).toEqual(parsed);
  });
});
