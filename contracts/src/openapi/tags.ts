import { messageSchema } from '../auth.js';
import { adminTagListSchema, languagePageSchema, tagPageSchema } from '../tag-views.js';
import { mergeTagSchema, renameTagSchema, tagListSchema, tagsQuerySchema } from '../tags.js';
import { cursorQuerySchema } from '../queries.js';
import { API } from '../routes.js';
import { type ApiOperation, json } from './operation.js';

const NAME = '{name}';

/** The tags' and the language facet's routes of API_OPERATIONS. */
export const TAGS_OPERATIONS: readonly ApiOperation[] = [
  {
    operationId: 'getTags',
    method: 'get',
    path: API.tags,
    summary: 'Tags by use (the most used first); with `q`, those starting with it',
    description:
      'Only tags that some listed paste (public, alive, not hidden, not burning) carries. At most ' +
      'TAGS_LIST_MAX (200) tags; with `q`, at most TAG_SUGGESTIONS_MAX (10).',
    tag: 'Forum',
    auth: 'none',
    query: tagsQuerySchema,
    responses: [json(200, 'The tags', tagListSchema)],
    errors: [400],
  },
  {
    operationId: 'getTag',
    method: 'get',
    path: API.tag(NAME),
    summary: "A tag's listed pastes, newest first (paged as home)",
    tag: 'Forum',
    auth: 'none',
    query: cursorQuerySchema,
    responses: [json(200, 'The tag and a page of its pastes', tagPageSchema)],
    errors: [400, 404],
  },
  {
    operationId: 'getLanguage',
    method: 'get',
    path: API.language(NAME),
    summary: 'The listed pastes in a language (a highlight.js name or alias), newest first',
    tag: 'Forum',
    auth: 'none',
    query: cursorQuerySchema,
    responses: [json(200, 'The language (its canonical name) and a page of pastes', languagePageSchema)],
    errors: [400],
  },
  {
    operationId: 'adminGetTags',
    method: 'get',
    path: API.adminTags,
    summary: 'Every tag, unused ones too, most used first',
    tag: 'Admin',
    auth: 'admin',
    query: tagsQuerySchema,
    responses: [json(200, 'The tags', adminTagListSchema)],
    errors: [400],
  },
  {
    operationId: 'adminRenameTag',
    method: 'patch',
    path: API.adminTag(NAME),
    summary: 'Renames a tag on every paste that carries it (audit-logged)',
    tag: 'Admin',
    auth: 'admin',
    body: renameTagSchema,
    responses: [json(200, 'Renamed', messageSchema)],
    errors: [400, 404, 409],
  },
  {
    operationId: 'adminMergeTag',
    method: 'post',
    path: API.adminTagMerge(NAME),
    summary: 'Merges a tag into another: its pastes carry the other (once), and it is deleted (audit-logged)',
    tag: 'Admin',
    auth: 'admin',
    body: mergeTagSchema,
    responses: [json(200, 'Merged', messageSchema)],
    errors: [400, 404],
  },
  {
    operationId: 'adminDeleteTag',
    method: 'delete',
    path: API.adminTag(NAME),
    summary: 'Deletes a tag and takes it off every paste (audit-logged)',
    tag: 'Admin',
    auth: 'admin',
    responses: [json(200, 'Deleted', messageSchema)],
    errors: [404],
  },
];
