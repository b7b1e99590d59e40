import { z } from 'zod';
import { API } from '../routes.js';
import type { TokenScope } from '../tokens.js';

/*
 * What one operation of the API's route table says (API_OPERATIONS in ../openapi.ts, one file per area
 * beside this one), and the helpers the areas write it with.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call: anyone, a signed-in member (the session cookie), or an admin. */
export type ApiAuth = 'none' | 'member' | 'admin';

export const API_TAGS = {
  Operations: 'Health and readiness checks',
  Site: 'Public facts about this installation',
  Accounts: 'Registration, sessions and passwords',
  Forum: 'Pastes, replies and votes',
  Members: 'Profiles and the members directory',
  Notifications: "The signed-in member's notifications",
  Messages: 'Private messages and support requests',
  Chat: 'The global chat (live events on the `/ws/chat` WebSocket)',
  Settings: "The signed-in member's profile, rank, avatar, mutes and blocks",
  Uploads: 'Presigned uploads and stored files',
  Admin: 'Moderation, members and the audit log: admins only',
  Moderation: "Members' flags and the staff's review queue",
  Docs: 'This documentation',
} as const;
export type ApiTag = keyof typeof API_TAGS;

export interface ApiResponse {
  status: number;
  description: string;
  /** The JSON body; for another `contentType`, what the body is (a string, say). */
  schema?: z.ZodType;
  /** Default `application/json` when there is a schema. */
  contentType?: string;
  /** Response headers worth naming (a redirect's Location). */
  headers?: Record<string, string>;
}

export interface ApiOperation {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path, with `{id}` (or `{key}`) parameters: `API.thread('{id}')`. */
  path: string;
  summary: string;
  description?: string;
  tag: ApiTag;
  auth: ApiAuth;
  /**
   * Whether a personal access token may call it, and with which scope (`any`: every valid token).
   * Default: a member's own GET takes `private:read`, nothing else takes one; `false` refuses tokens.
   */
  token?: TokenScope | 'any' | false;
  /** A JSON request body. */
  body?: z.ZodType;
  /** The JSON body may be left out (every field has a default). */
  bodyOptional?: boolean;
  /** A request body that is not JSON (a file). */
  rawBody?: { contentType: string; description: string; schema?: Record<string, unknown> };
  /**
   * The query string: the schema the controller parses it with (`@Query(new ZodValidationPipe(…))`, from
   * ../queries.ts). The document's query parameters are its fields: names, descriptions, types, required.
   */
  query?: z.ZodObject;
  /** The success response, then any other non-error ones (a 503 health report). */
  responses: readonly [ApiResponse, ...ApiResponse[]];
  /** Error statuses beyond those every such route has (401 for members, 403 for admins and writes). */
  errors?: readonly number[];
}

/**
 * The scope a personal access token needs on the operation (`any`: none in particular), or null when no
 * token may call it.
 */
export function operationTokenScope(
  op: Pick<ApiOperation, 'token' | 'auth' | 'method'>,
): TokenScope | 'any' | null {
  if (op.token !== undefined) return op.token === false ? null : op.token;
  return op.auth === 'member' && op.method === 'get' ? 'private:read' : null;
}

/** The path parameter of an id, as OpenAPI writes it: `API.thread(ID)`. */
export const ID = '{id}';
/** A stored object of the local storage, by its key. */
export const UPLOAD_PATH = API.upload('{key}');

export const json = (status: number, description: string, schema: z.ZodType): ApiResponse => ({
  status,
  description,
  schema,
});

export const redirect = (to: string, description: string): ApiResponse => ({
  status: 302,
  description,
  headers: { Location: `\`${to}\`` },
});
