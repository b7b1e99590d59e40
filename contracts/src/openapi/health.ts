import { siteSchema } from '../auth.js';
import { API } from '../routes.js';
import { healthSchema, readySchema } from '../schemas.js';
import { type ApiOperation, json } from './operation.js';

/** The Operations routes of API_OPERATIONS (health, readiness) and the Site's. */
export const HEALTH_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'getHealth',
    method: 'get',
    path: API.health,
    summary: 'Liveness: 200 while the process serves; `db` tells whether PostgreSQL answers',
    tag: 'Operations',
    auth: 'none',
    responses: [json(200, 'Up (the database may not be)', healthSchema)],
  },
  {
    operationId: 'getReady',
    method: 'get',
    path: API.ready,
    summary: 'Readiness: PostgreSQL and, when configured, Redis answer',
    tag: 'Operations',
    auth: 'none',
    responses: [json(200, 'Ready', readySchema), json(503, 'A dependency does not answer', readySchema)],
  },
  {
    operationId: 'getSite',
    method: 'get',
    path: API.site,
    summary: 'The product name and other public facts',
    tag: 'Site',
    auth: 'none',
    responses: [json(200, 'The installation', siteSchema)],
  },
];
