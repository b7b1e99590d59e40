import { createRequire } from 'node:module';
import path from 'node:path';
import { API, buildOpenApiDocument } from '@termpaste/contracts';
import express, { type RequestHandler, type Router } from 'express';
import type { AppConfig } from '../config/config.js';

const require = createRequire(import.meta.url);

/** The backend's version (src/http and dist/http sit at the same depth under backend/). */
const VERSION = (require('../../package.json') as { version: string }).version;

/** swagger-ui-dist's files, served from our own origin (no CDN: the Content-Security-Policy allows none). */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'];

export const DOCS_ASSETS = `${API.docs}/assets`;
/** The docs page's own script (it points Swagger UI at the document). */
export const INIT_SCRIPT = `${API.docs}/init.js`;

const NO_CACHE = 'no-cache';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(productName: string): string {
  const title = escapeHtml(`${productName} API`);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css" />
    <link rel="icon" type="image/png" href="${DOCS_ASSETS}/favicon-32x32.png" sizes="32x32" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
    <script src="${INIT_SCRIPT}"></script>
  </body>
</html>
`;
}

/** Not inline: the Content-Security-Policy runs scripts from files only. No validator badge (another site). */
const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(API.openApi)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
  });
});
`;

/**
 * The API's documentation: `GET /api/docs/openapi.json`, generated from the contracts' zod schemas
 * (buildOpenApiDocument), and `GET /api/docs`, Swagger UI showing it.
 */
export function apiDocsRouter(config: Pick<AppConfig, 'productName' | 'publicUrl'>): Router {
  const router = express.Router({ caseSensitive: true });
  let document: string | undefined;

  router.get(API.openApi, (_req, res) => {
    document ??= JSON.stringify(
      buildOpenApiDocument({
        productName: config.productName,
        version: VERSION,
        serverUrl: config.publicUrl,
      }),
    );
    res.setHeader('Cache-Control', NO_CACHE);
    res.type('application/json').send(document);
  });

  router.get(API.docs, (_req, res) => {
    res.setHeader('Cache-Control', NO_CACHE);
    res.type('html').send(page(config.productName));
  });

  router.get(INIT_SCRIPT, (_req, res) => {
    res.setHeader('Cache-Control', NO_CACHE);
    res.type('text/javascript').send(INIT);
  });

  for (const file of SWAGGER_UI_FILES) {
    router.get(`${DOCS_ASSETS}/${file}`, (_req, res, next) => {
      res.sendFile(path.join(SWAGGER_UI_DIR, file), { headers: { 'Cache-Control': NO_CACHE } }, (error) => {
        if (error && !res.headersSent) next(error);
      });
    });
  }

  return router;
}

/** apiDocsRouter for the app: only requests under API.docs go through its routes. */
export function apiDocs(config: Pick<AppConfig, 'productName' | 'publicUrl'>): RequestHandler {
  const router = apiDocsRouter(config);
  const under = `${API.docs}/`;
  const handler: RequestHandler = (req, res, next) =>
    req.path === API.docs || req.path.startsWith(under) ? router(req, res, next) : next();
  // The router's routes stay readable (as a mounted router's are) to whoever lists what the app serves.
  return Object.assign(handler, { stack: router.stack });
}
