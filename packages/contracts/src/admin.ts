/**
 * The admin API (`/api/admin/*`): every request body, query and answer, shared by the API (which validates
 * with these) and the admin remote (which parses answers and validates its forms with the same schemas).
 *
 * Every route but `POST /api/admin/login` and `GET /api/admin/session` needs the session cookie and answers
 * 401 `{ error: { code: 'unauthorized', … } }` without it. Every state-changing route (POST/PUT/PATCH/DELETE)
 * also needs a same-site `Origin` (or `Referer`) and answers 403 `forbidden` otherwise (CSRF).
 * Errors use the envelope of `./error` (`{ error: { code, message, details? } }`).
 */
// One module per area; `@site/contracts/admin` stays the single import for all of them.
export * from './admin-session';
export * from './admin-posts';
export * from './admin-leads';
export * from './admin-dashboard';
export * from './admin-alerts';
