import { adminDeleteUserQuerySchema, exportDownloadQuerySchema } from './account.js';
import { POST_MESSAGES } from './paste-views.js';
import { reviewQuerySchema } from './moderation.js';
import { API_OPERATIONS } from './openapi.js';
import { oembedQuerySchema } from './feeds.js';
import { createPasteQuerySchema } from './pastes.js';
import { ssoStartQuerySchema } from './sso.js';
import { tagsQuerySchema } from './tags.js';
import {
  adminUsersQuerySchema,
  auditQuerySchema,
  cursorQuerySchema,
  QUERY_MESSAGES,
  searchQuerySchema,
  pasteQuerySchema,
  uploadAddressQuerySchema,
  unsubscribeQuerySchema,
  usersQuerySchema,
} from './queries.js';

/** The first problem's text, as the backend's validation pipe answers a bad query string. */
function refusal(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string | undefined {
  expect(result.success).toBe(false);
  return result.error?.issues[0]?.message;
}

describe('query string schemas', () => {
  it('take a cursor; absent, empty, repeated or nested is the first page', () => {
    expect(cursorQuerySchema.parse({ cursor: 'abc' })).toEqual({ cursor: 'abc' });
    for (const cursor of [undefined, '', ['a', 'b'], { a: 'b' }]) {
      expect(cursorQuerySchema.parse({ cursor })).toEqual({ cursor: undefined });
    }
    expect(cursorQuerySchema.parse({ other: 'x' })).toEqual({ cursor: undefined });
  });

  it('search: the words trimmed, NUL characters dropped, required', () => {
    expect(searchQuerySchema.parse({ q: '  nmap\0 scan ' })).toEqual({ q: 'nmap scan', page: 1 });
    for (const q of [undefined, '', '  ', '\0', ['a', 'b']]) {
      expect(refusal(searchQuerySchema.safeParse({ q }))).toBe(POST_MESSAGES.searchQueryRequired);
    }
  });

  it('search: at most 200 characters, counted after trimming', () => {
    expect(searchQuerySchema.parse({ q: ` ${'x'.repeat(200)} ` }).q).toHaveLength(200);
    expect(refusal(searchQuerySchema.safeParse({ q: 'x'.repeat(201) }))).toBe(
      'Search query must be at most 200 characters',
    );
    expect(refusal(searchQuerySchema.safeParse({ q: 'x'.repeat(1_000_000) }))).toBe(
      POST_MESSAGES.searchQueryTooLong,
    );
  });

  it.each([
    ['3', 3],
    ['0', 1],
    ['999999', 999_999],
    ['1000000', 1],
    ['-2', 1],
    ['2.5', 1],
    ['x', 1],
    [undefined, 1],
    [['2', '3'], 1],
  ])('search: page %p is %p', (page, expected) => {
    expect(searchQuerySchema.parse({ q: 'a', page }).page).toBe(expected);
  });

  it('users directory: a name filter of at most 64 characters, and a cursor', () => {
    expect(usersQuerySchema.parse({ q: ' neo\0 ', cursor: 'c' })).toEqual({ q: 'neo', cursor: 'c' });
    expect(usersQuerySchema.parse({})).toEqual({ q: '', cursor: undefined });
    expect(usersQuerySchema.parse({ q: ` ${'x'.repeat(64)} ` }).q).toHaveLength(64);
    expect(refusal(usersQuerySchema.safeParse({ q: 'x'.repeat(65) }))).toBe(
      'The name filter must be at most 64 characters',
    );
    expect(QUERY_MESSAGES.userFilterTooLong).toBe('The name filter must be at most 64 characters');
    // Counted in UTF-16 units, as the API always has: 33 emoji are 66.
    expect(usersQuerySchema.parse({ q: '😀'.repeat(32) }).q).toHaveLength(64);
    expect(refusal(usersQuerySchema.safeParse({ q: '😀'.repeat(33) }))).toBe(
      QUERY_MESSAGES.userFilterTooLong,
    );
    expect(refusal(adminUsersQuerySchema.safeParse({ q: '😀'.repeat(33) }))).toBe(
      QUERY_MESSAGES.adminFilterTooLong,
    );
  });

  it('admin users: a filter of at most 64 characters', () => {
    expect(adminUsersQuerySchema.parse({ q: ' a@b ' })).toEqual({ q: 'a@b', cursor: undefined });
    expect(refusal(adminUsersQuerySchema.safeParse({ q: 'x'.repeat(65) }))).toBe(
      'The filter must be at most 64 characters',
    );
  });

  it('audit log: one known action (empty is all), then the filter, then the cursor', () => {
    expect(auditQuerySchema.parse({ action: 'user.ban', q: 'x', cursor: 'c' })).toEqual({
      action: 'user.ban',
      q: 'x',
      cursor: 'c',
    });
    expect(auditQuerySchema.parse({ action: '' })).toEqual({ action: undefined, q: '', cursor: undefined });
    for (const action of ['nope', ['user.ban', 'user.unban'], { a: 'user.ban' }]) {
      expect(refusal(auditQuerySchema.safeParse({ action }))).toBe(QUERY_MESSAGES.unknownAuditAction);
    }
    expect(QUERY_MESSAGES.unknownAuditAction).toMatch(
      /^Unknown action: use one of thread\.pin, thread\.unpin, /,
    );
    // Both wrong: the action's text comes first.
    expect(refusal(auditQuerySchema.safeParse({ action: 'nope', q: 'x'.repeat(65) }))).toBe(
      QUERY_MESSAGES.unknownAuditAction,
    );
  });
});

describe('the query strings the OpenAPI table documents', () => {
  // Each documented operation with a query string, and the schema its controller parses it with.
  const parsedWith = {
    getRecentThreads: cursorQuerySchema,
    getThreadForks: cursorQuerySchema,
    deleteUser: adminDeleteUserQuerySchema,
    downloadExport: exportDownloadQuerySchema,
    search: searchQuerySchema,
    listUsers: usersQuerySchema,
    getUserReputation: cursorQuerySchema,
    listInbox: cursorQuerySchema,
    listSentMessages: cursorQuerySchema,
    listNotifications: cursorQuerySchema,
    adminListUsers: adminUsersQuerySchema,
    getAuditLog: auditQuerySchema,
    getTrash: cursorQuerySchema,
    createPaste: createPasteQuerySchema,
    startProviderSignIn: ssoStartQuerySchema,
    getThread: pasteQuerySchema,
    listReviewItems: reviewQuerySchema,
    listSpamMarks: cursorQuerySchema,
    getTags: tagsQuerySchema,
    getTag: cursorQuerySchema,
    getLanguage: cursorQuerySchema,
    adminGetTags: tagsQuerySchema,
    // Checked by the signature, its names read from the schema (UploadAddresses).
    putObject: uploadAddressQuerySchema,
    describeUnsubscribe: unsubscribeQuerySchema,
    unsubscribe: unsubscribeQuerySchema,
    listBookmarks: cursorQuerySchema,
    searchFeed: searchQuerySchema,
    oembed: oembedQuerySchema,
  } as const;

  it('are those of the schemas: each operation names the one its controller parses with', () => {
    const documented = API_OPERATIONS.filter((op) => op.query).map((op) => op.operationId);
    expect(documented.sort()).toEqual(Object.keys(parsedWith).sort());
    for (const [operationId, schema] of Object.entries(parsedWith)) {
      const op = API_OPERATIONS.find((candidate) => candidate.operationId === operationId);
      expect([operationId, op?.query === schema]).toEqual([operationId, true]);
    }
  });
});

describe('pasteQuerySchema', () => {
  it('reads refresh=true as a live refresh (no view), anything else as a visit', () => {
    expect(pasteQuerySchema.parse({ refresh: 'true' })).toEqual({ refresh: true });
    for (const query of [{}, { refresh: 'false' }, { refresh: 'yes' }, { refresh: ['true', 'true'] }]) {
      expect(pasteQuerySchema.parse(query)).toEqual({ refresh: false });
    }
  });
});
