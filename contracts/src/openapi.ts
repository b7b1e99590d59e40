import { z } from 'zod';
import {
  adminRanksSchema,
  adminRenameSchema,
  adminRoleSchema,
  adminUserSchema,
  adminUsersPageSchema,
  auditEntrySchema,
  auditPageSchema,
  trashEntrySchema,
  trashPageSchema,
} from './admin.js';
import {
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  messageSchema,
  registerSchema,
  resetPasswordSchema,
  signInProviderSchema,
  siteSchema,
} from './auth.js';
import {
  createdSchema,
  createReplySchema,
  createPasteSchema,
  forkBodySchema,
  forksPageSchema,
  directoryUserSchema,
  publicAuthorSchema,
  recentPastesPageSchema,
  replySchema,
  searchResultsSchema,
  pasteCardSchema,
  pasteDetailSchema,
  pasteFlagsSchema,
  userProfileSchema,
  usersPageSchema,
  voteResultSchema,
  voteSchema,
} from './paste-views.js';
import {
  chatHistorySchema,
  chatMessagePostSchema,
  chatMessageSchema,
  chatPostSchema,
  messagesPageSchema,
  notificationSchema,
  notificationsPageSchema,
  privateMessageSchema,
  sendMessageSchema,
  unreadCountResultSchema,
  unreadCountSchema,
} from './messaging.js';
import { reputationEntrySchema, reputationLedgerPageSchema } from './reputation.js';
import {
  editedReplySchema,
  editedPasteSchema,
  editReplySchema,
  editPasteSchema,
  revisionListSchema,
  revisionSchema,
  revisionSummarySchema,
} from './revisions.js';
import { oembedSchema } from './feeds.js';
import { API } from './routes.js';
import { currentUserSchema, errorBodySchema, healthSchema, readySchema } from './schemas.js';
import {
  selectRankSchema,
  setAvatarSchema,
  supportRequestSchema,
  supportResultSchema,
  updateProfileSchema,
  uploadTicketSchema,
} from './settings.js';
import { createdTokenSchema, createTokenSchema, tokenSchema } from './tokens.js';
import { identitiesSchema, identitySchema, SSO_PROVIDER_ID, ssoUsernameSchema } from './sso.js';
import { ownerClaimSchema, verifyEmailSchema } from './verification.js';
import { HEALTH_OPERATIONS } from './openapi/health.js';
import { ACCOUNTS_OPERATIONS } from './openapi/accounts.js';
import { NOTIFICATIONS_OPERATIONS } from './openapi/notifications.js';
import { PASTES_OPERATIONS, pasteCardListSchema } from './openapi/pastes.js';
import { REVISIONS_OPERATIONS } from './openapi/revisions.js';
import { USERS_OPERATIONS } from './openapi/users.js';
import { SETTINGS_OPERATIONS } from './openapi/settings.js';
import { MAIL_OPERATIONS } from './openapi/mail.js';
import { PEOPLE_OPERATIONS } from './openapi/people.js';
import { TOKENS_OPERATIONS } from './openapi/tokens.js';
import { SIGNING_OPERATIONS } from './openapi/signing.js';
import { ACCOUNT_OPERATIONS } from './openapi/account.js';
import { SSO_OPERATIONS } from './openapi/sso.js';
import { MESSAGES_OPERATIONS } from './openapi/messages.js';
import { CHAT_OPERATIONS } from './openapi/chat.js';
import { UPLOADS_OPERATIONS } from './openapi/uploads.js';
import { ADMIN_OPERATIONS } from './openapi/admin.js';
import { FLAGS_OPERATIONS } from './openapi/flags.js';
import { DOCS_OPERATIONS } from './openapi/docs.js';
import { FEEDS_OPERATIONS } from './openapi/feeds.js';
import { WATCHING_OPERATIONS } from './openapi/watching.js';
import { TAGS_OPERATIONS } from './openapi/tags.js';
import {
  API_TAGS,
  type ApiOperation,
  type HttpMethod,
  operationTokenScope,
  UPLOAD_PATH,
} from './openapi/operation.js';

/*
 * The OpenAPI document, generated from the zod schemas both ends use. Request bodies are described as
 * the client sends them (`io: 'input'`), responses as the server sends them.
 */

export {
  API_TAGS,
  type ApiAuth,
  type ApiOperation,
  type ApiResponse,
  type ApiTag,
  type HttpMethod,
  operationTokenScope,
} from './openapi/operation.js';
export { pasteCardListSchema } from './openapi/pastes.js';

/** Every route of `API`, as the backend's controllers answer it (one file per area under openapi/). */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...HEALTH_OPERATIONS,
  ...ACCOUNTS_OPERATIONS,
  ...SSO_OPERATIONS,
  ...NOTIFICATIONS_OPERATIONS,
  ...PASTES_OPERATIONS,
  ...TAGS_OPERATIONS,
  ...REVISIONS_OPERATIONS,
  ...USERS_OPERATIONS,
  ...SETTINGS_OPERATIONS,
  ...MAIL_OPERATIONS,
  ...PEOPLE_OPERATIONS,
  ...TOKENS_OPERATIONS,
  ...SIGNING_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...MESSAGES_OPERATIONS,
  ...CHAT_OPERATIONS,
  ...UPLOADS_OPERATIONS,
  ...ADMIN_OPERATIONS,
  ...FLAGS_OPERATIONS,
  ...WATCHING_OPERATIONS,
  ...DOCS_OPERATIONS,
  ...FEEDS_OPERATIONS,
];

/** Component names of the schemas the operations use: responses as sent, bodies as received. */
const RESPONSE_COMPONENTS: ReadonlyArray<readonly [z.ZodType, string]> = [
  [errorBodySchema, 'Error'],
  [healthSchema, 'Health'],
  [readySchema, 'Ready'],
  [siteSchema, 'Site'],
  [messageSchema, 'Message'],
  [currentUserSchema, 'CurrentUser'],
  [publicAuthorSchema, 'PublicAuthor'],
  [pasteCardSchema, 'ThreadCard'],
  [pasteCardListSchema, 'ThreadCardList'],
  [replySchema, 'Reply'],
  [pasteDetailSchema, 'ThreadDetail'],
  [recentPastesPageSchema, 'RecentThreadsPage'],
  [searchResultsSchema, 'SearchResults'],
  [oembedSchema, 'Oembed'],
  [forksPageSchema, 'ForksPage'],
  [createdSchema, 'Created'],
  [voteResultSchema, 'VoteResult'],
  [userProfileSchema, 'UserProfile'],
  [directoryUserSchema, 'DirectoryUser'],
  [usersPageSchema, 'UsersPage'],
  [reputationEntrySchema, 'ReputationEntry'],
  [reputationLedgerPageSchema, 'ReputationLedgerPage'],
  [pasteFlagsSchema, 'ThreadFlags'],
  [editedPasteSchema, 'EditedThread'],
  [editedReplySchema, 'EditedReply'],
  [revisionSummarySchema, 'RevisionSummary'],
  [revisionListSchema, 'RevisionList'],
  [revisionSchema, 'Revision'],
  [notificationSchema, 'Notification'],
  [notificationsPageSchema, 'NotificationsPage'],
  [unreadCountSchema, 'UnreadCount'],
  [unreadCountResultSchema, 'UnreadCountResult'],
  [privateMessageSchema, 'PrivateMessage'],
  [messagesPageSchema, 'MessagesPage'],
  [chatMessageSchema, 'ChatMessage'],
  [chatHistorySchema, 'ChatHistory'],
  [uploadTicketSchema, 'UploadTicket'],
  [supportResultSchema, 'SupportResult'],
  [tokenSchema, 'AccessToken'],
  [createdTokenSchema, 'CreatedAccessToken'],
  [signInProviderSchema, 'SignInProvider'],
  [identitySchema, 'Identity'],
  [identitiesSchema, 'Identities'],
  [adminUserSchema, 'AdminUser'],
  [adminUsersPageSchema, 'AdminUsersPage'],
  [auditEntrySchema, 'AuditEntry'],
  [auditPageSchema, 'AuditPage'],
  [trashEntrySchema, 'TrashEntry'],
  [trashPageSchema, 'TrashPage'],
];

const REQUEST_COMPONENTS: ReadonlyArray<readonly [z.ZodType, string]> = [
  [registerSchema, 'RegisterBody'],
  [loginSchema, 'LoginBody'],
  [forgotPasswordSchema, 'ForgotPasswordBody'],
  [resetPasswordSchema, 'ResetPasswordBody'],
  [changePasswordSchema, 'ChangePasswordBody'],
  [verifyEmailSchema, 'VerifyEmailBody'],
  [ownerClaimSchema, 'OwnerClaimBody'],
  [createPasteSchema, 'CreateThreadBody'],
  [forkBodySchema, 'ForkBody'],
  [createReplySchema, 'CreateReplyBody'],
  [editPasteSchema, 'EditThreadBody'],
  [editReplySchema, 'EditReplyBody'],
  [voteSchema, 'VoteBody'],
  [updateProfileSchema, 'UpdateProfileBody'],
  [setAvatarSchema, 'SetAvatarBody'],
  [selectRankSchema, 'SelectRankBody'],
  [sendMessageSchema, 'SendMessageBody'],
  [supportRequestSchema, 'SupportRequestBody'],
  [createTokenSchema, 'CreateTokenBody'],
  [ssoUsernameSchema, 'SsoUsernameBody'],
  [chatPostSchema, 'ChatPostBody'],
  [chatMessagePostSchema, 'ChatMessagePostBody'],
  [adminRenameSchema, 'AdminRenameBody'],
  [adminRanksSchema, 'AdminGradesBody'],
  [adminRoleSchema, 'AdminRoleBody'],
];

/** The session cookie the backend sets (`termpaste.sid`). */
export const SESSION_COOKIE_NAME = 'termpaste.sid';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: the message names the field or the problem',
  401: 'Not signed in (a banned account counts as signed out)',
  403: 'Refused: a cross-site request, a banned account, or not allowed',
  404: 'Not found',
  409: 'Already taken',
  411: 'The request has no Content-Length',
  413: 'Too large',
  415: 'Not an accepted type: an upload that is no image, a paste that is no UTF-8 text',
  429: 'Too many attempts: try again later',
  501: 'Not implemented: a format or feature this server does not offer',
  503: 'A service the call needs is unavailable',
};

const STATE_CHANGING: ReadonlySet<HttpMethod> = new Set(['post', 'put', 'patch', 'delete']);

/** A JSON Schema as OpenAPI 3.1 takes it. */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocumentOptions {
  productName: string;
  version: string;
  /** Where the API is served (PUBLIC_URL). */
  serverUrl: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<HttpMethod, Record<string, unknown>>>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

const COMPONENTS_PREFIX = '#/components/schemas/';

/** Drops what a schema inside an OpenAPI document must not carry (`$schema`; `$id`, which zod sets from the uri). */
function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** The named schemas of one direction, with `$ref`s between them, and a lookup of their names. */
function components(entries: ReadonlyArray<readonly [z.ZodType, string]>, io: 'input' | 'output') {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `${COMPONENTS_PREFIX}${id}`,
    unrepresentable: 'throw',
  });
  const names = new Map(entries.map(([schema, id]) => [schema, id]));
  return {
    schemas: Object.fromEntries(
      Object.entries(schemas).map(([id, schema]) => [id, bare(schema as JsonSchema)]),
    ),
    /** A `$ref` to the schema's component, or the schema inline when it has none. */
    ref: (schema: z.ZodType): JsonSchema => {
      const name = names.get(schema);
      if (name !== undefined) return { $ref: `${COMPONENTS_PREFIX}${name}` };
      return bare(z.toJSONSchema(schema, { io, unrepresentable: 'throw' }) as JsonSchema);
    },
  };
}

function pathParameters(path: string): Record<string, unknown>[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) =>
    name === 'id'
      ? { name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }
      : name === 'provider'
        ? {
            name,
            in: 'path',
            required: true,
            description: 'A sign-in provider: an id of OIDC_PROVIDERS, or `github`',
            schema: { type: 'string', pattern: SSO_PROVIDER_ID.source },
          }
        : name === 'n'
          ? {
              name,
              in: 'path',
              required: true,
              description: 'The version (1: the original)',
              schema: { type: 'integer', minimum: 1 },
            }
          : {
              name,
              in: 'path',
              required: true,
              description: 'The object key (may contain `/`)',
              schema: { type: 'string' },
            },
  );
}

/**
 * The query parameters of a query string's schema (../queries.ts), one per field in its order: zod's JSON
 * Schema of what the client sends, the field's `description` lifted to the parameter, required when zod
 * says the field is (not optional, no default, no catch).
 */
function queryParameters(schema: z.ZodObject): Record<string, unknown>[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
    $defs?: unknown;
  };
  if (json.$defs) throw new Error('A query parameter cannot refer to another schema: inline it');
  return Object.entries(json.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    ...(description === undefined ? {} : { description }),
    schema: property,
  }));
}

/** The OpenAPI 3.1 document of the whole API. */
export function buildOpenApiDocument({
  productName,
  version,
  serverUrl,
}: OpenApiDocumentOptions): OpenApiDocument {
  const requests = components(REQUEST_COMPONENTS, 'input');
  const responses = components(RESPONSE_COMPONENTS, 'output');
  const errorRef = responses.ref(errorBodySchema);
  const paths: OpenApiDocument['paths'] = {};

  for (const op of API_OPERATIONS) {
    const errors = new Set(op.errors ?? []);
    if (op.auth !== 'none') errors.add(401);
    if (op.auth === 'admin' || (STATE_CHANGING.has(op.method) && op.path !== UPLOAD_PATH)) errors.add(403);
    const tokenScope = operationTokenScope(op);
    // A token is refused with 401 (bad, expired, revoked) or 403 (a scope it lacks).
    if (tokenScope) errors.add(401).add(403);

    const parameters = [...pathParameters(op.path), ...(op.query ? queryParameters(op.query) : [])];

    const security = [
      ...(op.auth === 'none' ? [] : [{ session: [] }]),
      ...(tokenScope ? [{ bearer: tokenScope === 'any' ? [] : [tokenScope] }] : []),
    ];
    const operation: Record<string, unknown> = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      security,
      ...(parameters.length > 0 ? { parameters } : {}),
    };
    if (op.body) {
      operation.requestBody = {
        required: !op.bodyOptional,
        content: { 'application/json': { schema: requests.ref(op.body) } },
      };
    } else if (op.rawBody) {
      operation.requestBody = {
        required: true,
        description: op.rawBody.description,
        content: {
          [op.rawBody.contentType]: {
            schema: op.rawBody.schema ?? { type: 'string', contentMediaType: op.rawBody.contentType },
          },
        },
      };
    }

    const documented: Record<string, unknown> = {};
    for (const response of op.responses) {
      documented[String(response.status)] = {
        description: response.description,
        ...(response.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(response.headers).map(([name, description]) => [
                  name,
                  { description, schema: { type: 'string' } },
                ]),
              ),
            }
          : {}),
        ...(response.schema
          ? {
              content: {
                [response.contentType ?? 'application/json']: { schema: responses.ref(response.schema) },
              },
            }
          : {}),
      };
    }
    for (const status of [...errors].sort((a, b) => a - b)) {
      documented[String(status)] ??= {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: errorRef } },
      };
    }
    operation.responses = documented;
    (paths[op.path] ??= {})[op.method] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: `${productName} API`,
      version,
      description: [
        `The HTTP API of ${productName}, generated from the zod schemas the server validates with.`,
        '',
        `Signing in (\`POST ${API.login}\` or \`POST ${API.register}\`) sets the \`${SESSION_COOKIE_NAME}\` session ` +
          'cookie, which authorizes the calls marked with the session scheme.',
        'Calls that change state (POST, PUT, PATCH, DELETE) must come from the site itself: their `Origin` ' +
          'header (or, absent it, their `Referer`) must be its origin, else they are refused with 403 ' +
          '(a call with a personal access token is exempt).',
        'A personal access token (made in settings, `POST /api/user/tokens`) sent as `Authorization: Bearer ' +
          'tp_…` authorizes the calls marked with the bearer scheme, within its scopes: `read` for public ' +
          "reads and the member's own pastes, `private:read` for their messages, notifications, chat and " +
          'reputation ledger, `pastes:write` for making pastes. Such a request is judged by the token alone (no cookie is read ' +
          'or set) and needs no `Origin`.',
        'Every error has the same body: `{ "statusCode": …, "message": "…" }`.',
      ].join('\n'),
    },
    servers: [{ url: serverUrl }],
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { ...responses.schemas, ...requests.schemas },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE_NAME,
          description: 'The session cookie set by signing in',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'tp_ and 40 base62 characters',
          description:
            'A personal access token; the requirement names the scope it needs (`read`, `private:read` or ' +
            '`pastes:write`)',
        },
      },
    },
  };
}
