import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { DEFAULT_RELEASE_LIMITS } from '../site/releases/release-policy';
import { canonicalStatement, keyId, SIGNATURE_FILE, signStatement, type ReleaseStatement } from '../site/releases/release-signature';
import { RELEASE_TARBALL_LIMITS } from '../site/releases/release-tarball';
import type { DocumentedResponse } from './endpoint';
import { errorCases, type ErrorCase } from './openapi-parts';

/*
 * What the release endpoints' descriptions say (deploys/releases-routes.ts): the archive a team's CI uploads, its
 * limits, the signature file's format, and every error code the release operations answer with, each as an example
 * exactly as the server sends it. Kept here, beside the document's other shared words, because a CI engineer writes the
 * deploy step from the document alone (issue 52): this is the long part of it. Its examples are checked against the
 * answers of a running server by deploys/__tests__/releases-openapi.test.ts.
 */

const MB = 1024 * 1024;
/** The most an upload's body may be (Content-Length), compressed: the route's stream body limit. */
export const RELEASE_UPLOAD_MAX_BYTES = 64 * MB;

const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** The archive: its layout, what a release holds, and the limits with their answers. */
export const RELEASE_ARCHIVE_NOTE = [
  '**The archive.** The built folder is `mfe-<app>/dist` (`shell/dist` for the shell); the body may have any Content-Type (`application/gzip` is usual).',
  'The folder\'s files are at the root of the archive, not under a folder of their own: build it with `tar -czf release.tar.gz -C mfe-blog/dist .` (a leading `./` is ignored). An archive of `dist/mfe-manifest.json`… holds no `mfe-manifest.json` and is refused (400 `release_refused`: `… mfe-manifest.json is missing`).',
  'A remote\'s release holds `mfe-manifest.json` (this app\'s name, its `version` and `routes`), `assets/remoteEntry.js`, and each server module its manifest names (`server.routes`, `server.entry`); the shell\'s holds `index.html` and `shell-manifest.json`, and `server/entry.js` when it renders on the server.',
  `The manifest is at most RELEASE_MAX_MANIFEST_KB (default ${DEFAULT_RELEASE_LIMITS.maxManifestBytes / 1024}) KB and declares at most RELEASE_MAX_ROUTES (default ${DEFAULT_RELEASE_LIMITS.maxRoutes}) routes and RELEASE_MAX_PAGES (default ${DEFAULT_RELEASE_LIMITS.maxPages}) pages, each inside the app's own paths (APP_ROUTES_<APP>).`,
  `**Limits.** A body whose Content-Length is over ${mb(RELEASE_UPLOAD_MAX_BYTES)} is refused before it is read: 413 \`payload_too_large\` (the connection is closed). Send Content-Length: a chunked body is bounded only by the expanded limit below.`,
  `While it is read, before anything is written: more than ${RELEASE_TARBALL_LIMITS.maxFiles} files, more than ${mb(RELEASE_TARBALL_LIMITS.maxBytes)} of files expanded (all together), an entry that is not a plain file or folder (a symbolic or hard link, a device), a path that is absolute or holds \`..\`, a backslash or NUL, a file twice, no file at all, or a body that is not gzip-compressed tar are each refused with 400 \`release_refused\` and a message \`the archive was refused: …\` naming the entry and the rule.`,
].join(' ');

// ------------------------------------------------------------------------------------------------------------------

/**
 * A worked example of the signature: a fixed Ed25519 key (the seed below; published, so never trust it), a release of
 * two files, and what the server checks. Ed25519 signatures are deterministic: a signer that follows the rules signs
 * these bytes to exactly this value, which is how a team can test its own signing code.
 */
const EXAMPLE_KEY_SEED = 'a3f1c0de5e7b2d4c9e8f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5';
const EXAMPLE_PRIVATE_KEY = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(EXAMPLE_KEY_SEED, 'hex')]), format: 'der', type: 'pkcs8' });
export const EXAMPLE_RELEASE_KEY_PEM = EXAMPLE_PRIVATE_KEY.export({ type: 'pkcs8', format: 'pem' }).toString();
export const EXAMPLE_RELEASE_PUBLIC_KEY = createPublicKey(EXAMPLE_PRIVATE_KEY).export({ type: 'spki', format: 'der' }).toString('base64');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** The example release: two files, `mfe-manifest.json` holding `{"name":"blog"}` and `assets/remoteEntry.js` holding `export {};`. */
export const EXAMPLE_RELEASE_FILES: Readonly<Record<string, string>> = { 'mfe-manifest.json': '{"name":"blog"}', 'assets/remoteEntry.js': 'export {};' };
export const EXAMPLE_RELEASE_STATEMENT: ReleaseStatement = {
  app: 'blog',
  version: '1.4.0',
  files: Object.entries(EXAMPLE_RELEASE_FILES)
    .map(([file, text]): [string, string] => [file, sha256(text)])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
};
export const EXAMPLE_RELEASE_SIGNATURE = signStatement(EXAMPLE_RELEASE_STATEMENT, EXAMPLE_RELEASE_KEY_PEM);

/** The signature file: its format, what is signed, and how the server checks it. */
export const RELEASE_SIGNATURE_NOTE = [
  `**Signing.** When the server has RELEASE_TRUSTED_KEYS, it takes only a release signed by a key trusted for the app: the archive holds \`${SIGNATURE_FILE}\` at its root, the JSON object \`{ "app", "version", "files", "key", "signature" }\`.`,
  '`files` lists every other file of the archive as `[path, sha256]`: the path as in the archive (`/` between folders, no leading `./`) and the lowercase hex SHA-256 of its bytes, sorted by path (JavaScript string order, UTF-16 code units); the signature file itself is not listed.',
  'The signed bytes are the UTF-8 of `JSON.stringify({ app, version, files })`: those three keys in that order, no white space, `files` sorted.',
  '`signature` is the Ed25519 signature (RFC 8032, of the bytes themselves, no pre-hash) of those bytes, in base64; `key` is the first 16 hex digits of the SHA-256 of the public key\'s SPKI DER form.',
  'The server trusts a key when RELEASE_TRUSTED_KEYS (entries separated by commas) has `<apps>=<public key>` with the app among `<apps>` (apps joined by `+`, or `*` for all), the key as the base64 of its SPKI DER form (`npm run release-key` makes a pair).',
  'The release must hold exactly the files listed, with those hashes. Any failure is 400 `release_refused`, `the release is not signed by a key trusted for <app>: …` naming the cause (the file missing or not JSON, signed for another app, an untrusted key, a signature that does not verify, a file not listed, changed or missing).',
  'A signed release is named its `version`: `?version=`, when given, must be the same.',
  `Example (a published key, never to be trusted): a release of two files, \`mfe-manifest.json\` holding \`${EXAMPLE_RELEASE_FILES['mfe-manifest.json']}\` and \`assets/remoteEntry.js\` holding \`${EXAMPLE_RELEASE_FILES['assets/remoteEntry.js']}\`, signed as blog 1.4.0 with the private key whose Ed25519 seed is \`${EXAMPLE_KEY_SEED}\` (public key \`${EXAMPLE_RELEASE_PUBLIC_KEY}\`, id \`${keyId(createPublicKey(EXAMPLE_PRIVATE_KEY))}\`), the signed bytes \`${canonicalStatement(EXAMPLE_RELEASE_STATEMENT).toString('utf8')}\` give the signature \`${EXAMPLE_RELEASE_SIGNATURE.signature}\`, and the file is \`${JSON.stringify(EXAMPLE_RELEASE_SIGNATURE)}\`.`,
  'Without RELEASE_TRUSTED_KEYS no signature is checked (a signature file still names the release).',
].join(' ');

// ------------------------------------------------------------------------------------------------------------------

const RELEASE_NAME_MESSAGE = 'A release name: letters, digits, . _ + - (not first), at most 100 characters.';

/** 400 `validation_failed`: a parameter or field breaks its rule (`details` names each). */
const invalid = (field: string, message: string): ErrorCase & { details: unknown } => ({
  name: 'validation_failed',
  code: 'validation_failed',
  message: `${field}: ${message}`,
  summary: 'A parameter or field breaks its rule; `details` names each',
  details: [{ path: field, message }],
});

/** Another deploy, rollback or promotion of the app holds its lock on this machine (`npm run deploy` beside the server). */
const IN_PROGRESS: ErrorCase = {
  code: 'deploy_in_progress',
  message: 'another deploy or rollback of blog is running (pid 4242); try again when it is done',
  summary: 'A deploy, rollback or promotion of the app by `npm run` on the serving machine holds its lock (SQLite sites; on PostgreSQL a second request waits its turn)',
};

const canaryRunning = (what: string): ErrorCase => ({
  code: 'canary_running',
  message: `a canary of blog 1.4.0 runs (10% of visitors since 2026-11-27T10:12:03.000Z), so ${what} must wait: serve it to everyone (POST /api/releases/blog/promote {"version":"1.4.0"}) or end it (POST /api/releases/blog/rollback) first`,
  summary: 'A canary of the app runs: promote its release to everyone or roll it back first',
});

const downgrade = (how: string): ErrorCase => ({
  code: 'downgrade_refused',
  message: `blog 1.0.0 is below 2.0.0, which is served: a release only goes forward. To serve it anyway, ${how}; to serve a stored release again, roll back to it. Nothing was changed.`,
  summary: 'Its version is below the served one (semver precedence, build metadata ignored) and `allowDowngrade` was not given',
});

/** Every 400 of an upload: its input, the archive, the release's checks, the smoke render. */
export const UPLOAD_400: DocumentedResponse = errorCases(
    'Refused, nothing stored or changed, and (but for `validation_failed`) written to the deploy log with an alert to the owner: `validation_failed` (a query parameter), `release_refused` (the archive, its layout, format, fit with the serving shell, signature or server module; the message names the cause in full) or `smoke_render_failed` (one of its pages threw in its smoke render, or it did not render within RELEASE_SMOKE_RENDER_TIMEOUT_MS; the message names the page and the error\'s first line).',
    [
      invalid('version', RELEASE_NAME_MESSAGE),
      { name: 'archive_not_gzip', code: 'release_refused', message: 'the archive was refused: the body is not a gzip-compressed tar archive (.tar.gz)', summary: 'The body is not a .tar.gz' },
      { name: 'archive_too_many_files', code: 'release_refused', message: `the archive was refused: the archive holds more than ${RELEASE_TARBALL_LIMITS.maxFiles} files`, summary: `More than ${RELEASE_TARBALL_LIMITS.maxFiles} files` },
      {
        name: 'archive_too_large',
        code: 'release_refused',
        message: `the archive was refused: the archive expands to more than ${mb(RELEASE_TARBALL_LIMITS.maxBytes)} (at "assets/huge.bin"): refused`,
        summary: `More than ${mb(RELEASE_TARBALL_LIMITS.maxBytes)} of files, expanded`,
      },
      { name: 'archive_path', code: 'release_refused', message: 'the archive was refused: "../escape.js": a path with .. is refused', summary: 'A path with `..` (or absolute, or a link)' },
      { name: 'layout', code: 'release_refused', message: 'this is not a release of blog the site can serve: mfe-manifest.json is missing', summary: 'The files are not at the archive\'s root (or the manifest is missing)' },
      {
        name: 'policy',
        code: 'release_refused',
        message: `this is not a release of blog the site can serve: mfe-manifest.json declares 250 routes, over the limit of ${DEFAULT_RELEASE_LIMITS.maxRoutes} (RELEASE_MAX_ROUTES)`,
        summary: 'Its manifest breaks the site\'s release policy',
      },
      {
        name: 'signature',
        code: 'release_refused',
        message: `the release is not signed by a key trusted for blog: ${SIGNATURE_FILE} is missing: the release is not signed`,
        summary: 'Not signed by a key trusted for the app (with RELEASE_TRUSTED_KEYS)',
      },
      {
        name: 'server_module',
        code: 'release_refused',
        message: 'its server module would not run: server/routes.js does not load: server/routes.js:3:2: Expected "}" but found "oops"',
        summary: 'Its server module does not load',
      },
      {
        code: 'smoke_render_failed',
        message: "smoke render of /blog/chatbots-for-dentists failed: TypeError: Cannot read properties of undefined (reading 'name')",
        summary: 'A page of it threw, or it did not render in time, in its smoke render',
      },
    ],
);

/** 409 of an upload. */
export const UPLOAD_409: DocumentedResponse = errorCases(
  'Refused, nothing changed (written to the deploy log): a release of that name exists (`release_exists`; names never change what they hold), its version is below the served one (`downgrade_refused`, unless `?allowDowngrade=1`), a canary of the app runs (`canary_running`), or another deploy holds the app\'s lock (`deploy_in_progress`). Unnamed, when 10,000 names after the manifest\'s version are taken: `conflict` (pass `?version=`).',
  [
    { code: 'release_exists', message: 'release 1.4.0 of blog exists already: a name never changes what it holds. Deploy under another version.', summary: 'A release (staged or not) has that name' },
    downgrade('deploy it with --allow-downgrade (POST /api/releases/blog?allowDowngrade=1)'),
    canaryRunning('deploying another release'),
    IN_PROGRESS,
  ],
);

/** 413 of an upload: over the body limit, by its Content-Length. */
export const UPLOAD_413: DocumentedResponse = errorCases(
  `The body's Content-Length is over ${mb(RELEASE_UPLOAD_MAX_BYTES)}: refused before it is read, and the connection closed. (Over the expanded limit or the file count, the answer is 400 \`release_refused\`.)`,
  [{ code: 'payload_too_large', message: 'The request body is larger than this endpoint accepts.', summary: `A body over ${mb(RELEASE_UPLOAD_MAX_BYTES)}` }],
);

/** 400 of a rollback. */
export const ROLLBACK_400: DocumentedResponse = errorCases('Refused, nothing changed: `validation_failed` (the body), or `release_refused` (the release named is checked again as it would be served now, and no longer passes; the message names why).', [
    invalid('version', RELEASE_NAME_MESSAGE),
    {
      code: 'release_refused',
      message: 'cannot roll back to 1.3.2: the release is not signed by a key trusted for blog: release-signature.json is missing: the release is not signed',
      summary: 'The release no longer passes the checks (the serving shell or the trusted keys changed)',
    },
  ],
);

export const ROLLBACK_404: DocumentedResponse = errorCases('No release of the app has that name (`release_not_found`).', [
  { code: 'release_not_found', message: 'no release of blog is named 9.9.9 (GET /api/releases/blog lists them)', summary: 'No release of that name' },
]);

export const ROLLBACK_409: DocumentedResponse = errorCases(
  'Nothing changed: that release is served already (`already_served`), there is nothing to roll back to (`nothing_to_roll_back`), the release named is staged (`not_served_yet`: promote it), or another deploy holds the app\'s lock (`deploy_in_progress`).',
  [
    { code: 'already_served', message: 'blog already serves 1.3.2', summary: 'That release is served now' },
    {
      code: 'nothing_to_roll_back',
      message: 'blog has no release before 1.3.2 to roll back to. Name one (GET /api/releases/blog lists them)',
      summary: 'No release below the served one (or none served)',
    },
    { code: 'not_served_yet', message: 'release 1.4.0 of blog is staged: serve it with POST /api/releases/blog/promote', summary: 'A staged release: promote it instead' },
    IN_PROGRESS,
  ],
);

/** 400 of a promotion. */
export const PROMOTE_400: DocumentedResponse = errorCases(
    'Refused, nothing changed: `validation_failed` (the body), `promote_after_without_canary` (`promoteAfter` with no `percent` below 100), `promote_after_passed` (a `promoteAfter` not in the future), or `release_refused` (checked again as it would be served now, it no longer passes; or a canary of the shell, which is served to everyone or no one).',
    [
      invalid('percent', 'percent is a whole number from 1 to 100: the share of visitors served this release (100: everyone).'),
      {
        code: 'promote_after_without_canary',
        message: 'promoteAfter goes with a canary (a percent below 100): 1.4.0 would be served to everyone now',
        summary: '`promoteAfter` without a canary',
      },
      { code: 'promote_after_passed', message: 'promoteAfter (2026-11-27T09:00:00.000Z) has passed: name a time to come', summary: '`promoteAfter` is not in the future' },
      {
        code: 'release_refused',
        message: 'cannot promote 1.4.0: the release is not signed by a key trusted for blog: release-signature.json is missing: the release is not signed',
        summary: 'The staged release no longer passes the checks',
      },
    ],
);

export const PROMOTE_404: DocumentedResponse = errorCases('No staged release of the app has that name (`release_not_found`).', [
  { code: 'release_not_found', message: 'no staged release of blog is named 9.9.9 (GET /api/releases/blog lists them)', summary: 'No staged release of that name' },
]);

export const PROMOTE_409: DocumentedResponse = errorCases(
  'Nothing changed: that release is served already (`already_served`), it is a stored release, not a staged one (`not_staged`: roll back to it), its version is below the served one (`downgrade_refused`, without `allowDowngrade`), a canary of another release runs (`canary_running`), a canary is asked for while the app serves nothing yet (`nothing_served`), or another deploy holds the app\'s lock (`deploy_in_progress`).',
  [
    { code: 'already_served', message: 'blog already serves 1.4.0', summary: 'That release is served now' },
    { code: 'not_staged', message: 'release 1.3.2 of blog is not staged: serve it again with POST /api/releases/blog/rollback', summary: 'A stored release: roll back to it instead' },
    downgrade('promote it with --allow-downgrade ({"allowDowngrade": true})'),
    canaryRunning('promoting 1.5.0'),
    { code: 'nothing_served', message: 'blog serves no release yet, so a canary has nothing to compare with: promote 1.4.0 to everyone', summary: 'A canary with nothing served to compare it with' },
    IN_PROGRESS,
  ],
);
