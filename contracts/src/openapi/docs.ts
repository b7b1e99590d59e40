import { z } from 'zod';
import { API } from '../routes.js';
import { type ApiOperation, json } from './operation.js';

/** The Docs routes of API_OPERATIONS. */
export const DOCS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'getApiDocs',
    method: 'get',
    path: API.docs,
    summary: 'This documentation, as a page',
    tag: 'Docs',
    auth: 'none',
    responses: [{ status: 200, description: 'The page', schema: z.string(), contentType: 'text/html' }],
  },
  {
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: API.openApi,
    summary: 'This OpenAPI document',
    tag: 'Docs',
    auth: 'none',
    responses: [json(200, 'The OpenAPI 3.1 document', z.record(z.string(), z.unknown()))],
  },
];
