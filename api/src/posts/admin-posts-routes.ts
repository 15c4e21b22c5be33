import {
  ADMIN_MESSAGES,
  adminPostCreateSchema,
  adminPostListQuerySchema,
  adminPostListSchema,
  adminPostPreviewRequestSchema,
  adminPostPreviewSchema,
  adminPostScheduleSchema,
  adminPostUpdateSchema,
  deletedPostListSchema,
  postRevisionListQuerySchema,
  postRevisionListSchema,
  postRevisionRestoreSchema,
  postRevisionSchema,
  REVISION_IS_CURRENT,
} from '@site/contracts/admin';
import { postSchema } from '@site/contracts/posts';
import type { PostActor } from './post-service';
import { defineEndpoints } from '../http/endpoint';
import { documentedPostFields, error, errorCases, errorResponse, EXAMPLE_POST_INPUT } from '../http/openapi-parts';

const expectedUpdatedAtSchema = adminPostUpdateSchema.pick({ expectedUpdatedAt: true });

const ADMIN: PostActor = { kind: 'admin' };

/** The post fields of a body, without what the admin routes set themselves (status, schedule, the concurrency token). */
function postFields(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { status: _status, publishAt: _publishAt, expectedUpdatedAt: _expected, ...rest } = body as Record<string, unknown>;
  return rest;
}

const POST_ID = { id: { description: 'The post id.', example: '3f1c9a4e-2b7d-4c1e-9a55-0d6f2e8b7c10' } };
const REVISION = { ...POST_ID, revisionId: { description: 'The revision id.', example: 'rev_0b6e1c2d' } };
const post = (description: string) => ({ description, body: { schema: postSchema, component: 'Post' } });
const POST_VALIDATION = errorResponse(
  "A field breaks a rule: the spec's 'Validation failed: ' sentence; `details` names each field and its rule.",
  error('validation_failed', 'Validation failed: Title must be at least 5 characters long', [{ path: 'title', message: 'must be at least 5 characters (got 3)' }]),
);
const POST_NOT_FOUND = errorResponse('No post has this id.', error('not_found', ADMIN_MESSAGES.postNotFound));
const POST_CONFLICT = errorResponse(
  'The post changed since `expectedUpdatedAt` (`details.current` is the stored post), or its status does not allow this.',
  error('conflict', ADMIN_MESSAGES.postConflict),
);
const EXPECTED_UPDATED_AT = '2026-05-04T09:00:00.000Z';
/** The restore's refusals: a stale version, or a revision the post already is (nothing would change). Nothing is stored. */
const RESTORE_CONFLICT = errorCases(
  'Nothing restored, no revision recorded: the post changed since `expectedUpdatedAt` (`conflict`, `details.current` is the stored post), or it already has every field this revision would restore (`revision_is_current`: title, excerpt, content, keywords, author, category, images and meta description).',
  [
    { code: 'conflict', message: ADMIN_MESSAGES.postConflict, summary: 'The post changed since `expectedUpdatedAt`.' },
    { code: REVISION_IS_CURRENT.code, message: REVISION_IS_CURRENT.message, summary: 'The revision is the current version: restoring it would change nothing.' },
  ],
);

/**
 * Posts in the admin panel: every status, search and status filter, create (draft), update refusing stale
 * versions (409), publish (drafts and scheduled posts), schedule and unschedule, delete, each post's revision history
 * with restore, and the posts deleted in the last 30 days with undelete. Validation, slugs, sanitizing, category
 * counts, revisions, and the list's pages and counts per status (in SQL) are the PostService's, as for the webhook.
 */
export const adminPostsRoutes = defineEndpoints({ config: ['bodyLimit', 'publicOrigin'], services: ['posts', 'scheduler', 'admin'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/admin/posts',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Posts of every status, newest change first (with `q`: best match first), with counts per status',
    description:
      'Pages by keyset: pass `nextCursor` back as `cursor` for older posts, `prevCursor` for newer ones (send the same `status`). `total` and `counts` come from counters the database keeps, not a count per page. ' +
      '`q` searches title, excerpt and category through the full-text index: every word must match, the last one may be the start of a word, case-insensitive; punctuation separates words and is never query syntax. A title match ranks above an excerpt match, an excerpt match above a category match. A search answers one page, the best `limit` of the newest 1,000 matches, and takes no cursor; `total` counts the matches up to 1,000 and `totalIsLowerBound` is true when more match (show "1,000+").',
    query: { schema: adminPostListQuerySchema },
    responses: {
      200: { description: 'One page.', body: { schema: adminPostListSchema } },
      400: errorResponse('A bad query field, or a cursor the server did not issue.', error('invalid_cursor', 'The cursor is not valid. Start again from the first page.')),
    },
    handle: ({ query }, { services }) => services.posts.pageAll(query),
  }),
  // Before /:id routes: 'preview' is not an id.
  endpoint({
    method: 'post',
    path: '/api/admin/posts/preview',
    tag: 'Admin',
    auth: 'admin',
    summary: 'The article HTML as it would be stored (sanitized); stores nothing',
    // The post service validates it, with the post's own messages.
    body: { schema: adminPostPreviewRequestSchema, example: { content: '<p>Hello <script>x()</script>world</p>' }, parse: false },
    responses: { 200: { description: 'The sanitized HTML.', body: { schema: adminPostPreviewSchema, example: { content: '<p>Hello world</p>' } } }, 400: POST_VALIDATION },
    handle: ({ body }, { services }) => services.posts.previewContent(body),
  }),
  // Before /:id routes: 'deleted' is not an id.
  endpoint({
    method: 'get',
    path: '/api/admin/posts/deleted',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Posts deleted in the last 30 days, most recent first',
    responses: { 200: { description: 'The deleted posts.', body: { schema: deletedPostListSchema } } },
    handle: async (_input, { services }) => ({ posts: await services.posts.listDeleted() }),
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/posts/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'One post of any status',
    params: POST_ID,
    responses: { 200: post('The post.'), 404: POST_NOT_FOUND },
    handle: ({ params }, { services }) => services.posts.getById(params.id),
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/posts',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Create a post (a draft)',
    description: 'Slug, read time and category are derived; the HTML is sanitized. `status` and `publishAt` are ignored (use publish and schedule).',
    // The post service validates the fields ('Validation failed: …', the spec's sentences).
    body: { schema: documentedPostFields(adminPostCreateSchema), example: EXAMPLE_POST_INPUT, parse: postFields },
    responses: {
      201: post('Created.'),
      400: POST_VALIDATION,
      409: errorResponse('No free address for the post; try again.', error('conflict', 'The post could not get a free address. Please try again.')),
    },
    handle: ({ body }, { services }) => services.posts.create(body, { actor: ADMIN }),
  }),
  endpoint({
    method: 'put',
    path: '/api/admin/posts/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Save a post (its status stays)',
    params: POST_ID,
    body: {
      schema: documentedPostFields(adminPostUpdateSchema),
      example: { ...EXAMPLE_POST_INPUT, expectedUpdatedAt: EXPECTED_UPDATED_AT },
      // The concurrency token here; the post service validates the fields.
      parse: (body: unknown) => ({ ...expectedUpdatedAtSchema.parse(body ?? {}), fields: postFields(body) }),
    },
    responses: { 200: post('The saved post.'), 400: POST_VALIDATION, 404: POST_NOT_FOUND, 409: POST_CONFLICT },
    handle: ({ params, body }, { services }) => services.posts.update(params.id, body.fields, { expectedUpdatedAt: body.expectedUpdatedAt, actor: ADMIN }),
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/posts/:id/publish',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Publish a draft or a scheduled post now',
    params: POST_ID,
    responses: { 200: post('The published post.'), 404: POST_NOT_FOUND, 409: POST_CONFLICT },
    handle: ({ params }, { services }) => services.posts.publish(params.id, { actor: ADMIN }),
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/posts/:id/schedule',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Schedule a draft (or move a scheduled post) to publish at `publishAt`',
    description: '`publishAt` is ISO 8601 with its UTC offset, in the future and at most a year ahead (400 otherwise, naming the rule).',
    params: POST_ID,
    body: { schema: adminPostScheduleSchema, example: { publishAt: '2026-12-01T09:00:00-08:00' } },
    responses: { 200: post('The scheduled post.'), 400: POST_VALIDATION, 404: POST_NOT_FOUND, 409: POST_CONFLICT },
    handle: async ({ params, body }, { services }) => {
      const scheduled = await services.posts.schedule(params.id, body.publishAt, { expectedUpdatedAt: body.expectedUpdatedAt, actor: ADMIN });
      // This instance's timer goes to the new time at once (others see it at their next poll, within seconds).
      void services.scheduler.check();
      return scheduled;
    },
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/posts/:id/unschedule',
    tag: 'Admin',
    auth: 'admin',
    summary: 'A scheduled post back to draft',
    params: POST_ID,
    responses: { 200: post('The draft.'), 404: POST_NOT_FOUND, 409: errorResponse('The post is not scheduled.', error('conflict', 'This post is not scheduled')) },
    handle: ({ params }, { services }) => services.posts.unschedule(params.id, { actor: ADMIN }),
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/posts/:id/revisions',
    tag: 'Admin',
    auth: 'admin',
    summary: "A post's revisions, newest first (also of a post deleted in the last 30 days)",
    params: POST_ID,
    query: { schema: postRevisionListQuerySchema },
    responses: {
      200: { description: 'One page of revisions.', body: { schema: postRevisionListSchema } },
      400: errorResponse('A bad query field.', error('validation_failed', 'page: page must be a number', [{ path: 'page', message: 'page must be a number' }])),
      404: POST_NOT_FOUND,
    },
    handle: ({ params, query }, { services }) => services.posts.revisions(params.id, query),
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/posts/:id/revisions/:revisionId',
    tag: 'Admin',
    auth: 'admin',
    summary: 'One revision with the post as it was then',
    params: REVISION,
    responses: { 200: { description: 'The revision.', body: { schema: postRevisionSchema } }, 404: errorResponse('No such revision of this post.', error('not_found', 'Revision not found')) },
    handle: ({ params }, { services }) => services.posts.revision(params.id, params.revisionId),
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/posts/:id/revisions/:revisionId/restore',
    tag: 'Admin',
    auth: 'admin',
    summary: "Restore a revision's fields as a new revision (status and slug stay)",
    params: REVISION,
    body: { schema: postRevisionRestoreSchema, example: { expectedUpdatedAt: EXPECTED_UPDATED_AT } },
    responses: {
      200: post('The post with the restored fields.'),
      400: errorResponse('A field breaks a rule; `details` names each field and its rule.', error('validation_failed', 'expectedUpdatedAt: Invalid input', [{ path: 'expectedUpdatedAt', message: 'Invalid input' }])),
      404: errorResponse('No such post or revision.', error('not_found', 'Revision not found')),
      409: RESTORE_CONFLICT,
    },
    handle: ({ params, body }, { services }) => services.posts.restoreRevision(params.id, params.revisionId, { expectedUpdatedAt: body.expectedUpdatedAt, actor: ADMIN }),
  }),
  endpoint({
    method: 'post',
    path: '/api/admin/posts/:id/undelete',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Bring back a post deleted in the last 30 days, as a draft',
    params: POST_ID,
    responses: { 201: post('The restored draft.'), 404: errorResponse('The post was not deleted in the last 30 days.', error('not_found', 'Deleted post not found')) },
    handle: ({ params }, { services }) => services.posts.undelete(params.id, { actor: ADMIN }),
  }),
  endpoint({
    method: 'delete',
    path: '/api/admin/posts/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Delete a post (its history is kept 30 days for undelete)',
    params: POST_ID,
    responses: { 204: { description: 'Deleted.' }, 404: POST_NOT_FOUND },
    handle: async ({ params }, { services }) => {
      await services.posts.delete(params.id, { actor: ADMIN });
    },
  }),
]);
