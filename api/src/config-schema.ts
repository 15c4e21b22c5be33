import { DEFAULT_APP_ROUTES } from '@site/contracts/route-ownership';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import { z } from 'zod';
import { LOG_LEVELS, aSwitch, appRoutes, byteSize, duration, httpUrl, optionalString, whole } from './config-parsers';
import { parseTrustedKeys } from './site/releases/release-signature';
import { DEFAULT_RELEASE_LIMITS } from './site/releases/release-policy';

/**
 * Every environment variable the API reads: its parser, what unset means and what it does. `loadConfig` parses the
 * environment with these schemas and `npm run docs:config` writes docs/configuration.md from the same table.
 */

/** The sections of docs/configuration.md, in order. */
export const SETTING_GROUPS = {
  server: 'Server',
  requests: 'Requests, proxies and limits',
  database: 'Database and Redis',
  secrets: 'Admin login and secrets',
  mail: 'Mail',
  integrations: 'Integrations and the analysis tool',
  rendering: 'Rendering',
  releases: 'Releases and deploys',
  'release-errors': 'Errors per release and canaries',
  media: 'Media',
  retention: 'Retention',
  observability: 'Metrics and tracing',
} as const;
export type SettingGroup = keyof typeof SETTING_GROUPS;

export interface Setting {
  group: SettingGroup;
  /** Parses the variable's text (absent when unset or blank); its `.default()`, if any, is the documented default. */
  schema: z.ZodType;
  /** What an unset variable means, when the schema has no default value of its own (Markdown). */
  unset?: string;
  /** What the variable does, in a sentence or two (Markdown). */
  meaning: string;
}

type RemoteUrlKey = `REMOTE_${Uppercase<RemoteName>}_URL`;
type AppRoutesKey = `APP_ROUTES_${Uppercase<RemoteName>}`;
const upper = (name: RemoteName) => name.toUpperCase() as Uppercase<RemoteName>;

const remoteUrlSettings = Object.fromEntries(
  REMOTE_NAMES.map((name) => [
    `REMOTE_${upper(name)}_URL`,
    {
      group: 'rendering',
      schema: httpUrl,
      unset: `\`/mfe/${name}/\` (same origin)`,
      meaning: `Full URL of the ${name} remote's \`remoteEntry.js\` when it is hosted elsewhere (its origin is added to the CSP); the server still reads that remote's manifest and server module from its local release.`,
    },
  ]),
) as Record<RemoteUrlKey, { group: SettingGroup; schema: typeof httpUrl; unset: string; meaning: string }>;

const appRoutesSettings = Object.fromEntries(
  REMOTE_NAMES.map((name) => [
    `APP_ROUTES_${upper(name)}`,
    {
      group: 'releases',
      schema: appRoutes,
      unset: DEFAULT_APP_ROUTES[name].map((p) => `\`${p}\``).join(', '),
      meaning: `The paths the ${name} app owns, comma-separated patterns (\`/path\` that path, \`/path/*\` it and below, \`/path*\` every path starting so); a release declaring a route or page outside them is refused. \`/api\`, \`/mfe\`, \`/media\`, \`/assets\`, the feed and the sitemaps are the server's.`,
    },
  ]),
) as Record<AppRoutesKey, { group: SettingGroup; schema: typeof appRoutes; unset: string; meaning: string }>;

/** What a release may declare (APP_ROUTES_*, RELEASE_MAX_*): the server's, and all `npm run deploy` reads, so both judge a release alike. */
export const RELEASE_POLICY_SETTINGS = {
  ...appRoutesSettings,
  RELEASE_MAX_ROUTES: {
    group: 'releases',
    schema: whole(1, 100_000, DEFAULT_RELEASE_LIMITS.maxRoutes),
    meaning: 'The most routes one release may declare (checked at upload and again at load).',
  },
  RELEASE_MAX_PAGES: {
    group: 'releases',
    schema: whole(0, 100_000, DEFAULT_RELEASE_LIMITS.maxPages),
    meaning: 'The most pages one release may declare.',
  },
  RELEASE_MAX_MANIFEST_KB: {
    group: 'releases',
    schema: whole(1, 64 * 1024, DEFAULT_RELEASE_LIMITS.maxManifestBytes / 1024),
    meaning: "The largest manifest one release may carry, in kilobytes.",
  },
} satisfies Record<string, Setting>;

export const SETTINGS = {
  PORT: {
    group: 'server',
    schema: z.coerce.number({ message: 'Must be a number' }).int().min(0).max(65535).default(3000),
    meaning: 'Port the server listens on.',
  },
  HOST: {
    group: 'server',
    schema: z.string().min(1).default('0.0.0.0'),
    meaning: 'Interface the server listens on.',
  },
  DATA_DIR: {
    group: 'server',
    schema: z.string().min(1).default('./data'),
    meaning: 'Where the SQLite file (`site.db`) and other local state live; created on first start with mode 0700, the database files 0600.',
  },
  DATABASE_URL: {
    group: 'database',
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { message: 'Must be a postgres:// or postgresql:// URL' })
      .optional(),
    unset: 'SQLite under `DATA_DIR`',
    meaning: "PostgreSQL connection string; when set, PostgreSQL is used instead of SQLite, in the connection's current schema (`public`, or one named with `?options=-c%20search_path%3Dsite`).",
  },
  REDIS_URL: {
    group: 'database',
    schema: z
      .string()
      .regex(/^rediss?:\/\//, { message: 'Must be a redis:// or rediss:// URL' })
      .optional(),
    unset: 'counters per process',
    meaning: 'Redis (`redis://` or `rediss://`) holding the rate limits and the admin login lockout once for every instance. While Redis does not answer, each instance counts on its own.',
  },
  REDIS_KEY_PREFIX: {
    group: 'database',
    schema: z
      .string()
      .regex(/^[\w.:-]{1,64}$/, { message: 'Must be 1-64 letters, digits or . _ : -' })
      .optional(),
    unset: 'no prefix',
    meaning: 'Put before every key the site writes in Redis (1-64 letters, digits, `.`, `_`, `:`, `-`), for a Redis shared with other applications.',
  },
  PUBLIC_ORIGIN: {
    group: 'server',
    schema: httpUrl,
    unset: '`http://localhost:$PORT`',
    meaning: 'The address the site is opened at: used in canonical links, the sitemap and the feed, and the only origin admin changes are accepted from (CSRF).',
  },
  ADMIN_PASSWORD: {
    group: 'secrets',
    schema: optionalString,
    meaning: 'The admin password in plain text, hashed in memory at start; prefer `ADMIN_PASSWORD_HASH`. With neither set, the admin login answers 503 saying how to set one.',
  },
  ADMIN_PASSWORD_HASH: {
    group: 'secrets',
    schema: optionalString,
    meaning: 'The admin password as printed by `npm run hash-password` (`scrypt$N$r$p$<salt>$<key>`; quote it in shell files, it contains `$`).',
  },
  WEBHOOK_SECRET: {
    group: 'secrets',
    schema: optionalString,
    meaning: 'HMAC secret of the incoming post webhook; unset, the webhook answers 503.',
  },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: {
    group: 'integrations',
    schema: aSwitch,
    unset: '`false`',
    meaning: '`true` lets outgoing webhooks go to loopback and private-network addresses (a self-hosted n8n on the same network). Link-local and cloud metadata addresses stay refused.',
  },
  SMTP_URL: {
    group: 'mail',
    schema: optionalString,
    unset: 'no mail is sent',
    meaning: 'SMTP server (`smtp://user:pass@mail.example:587`) through which contact messages are also emailed to the owner.',
  },
  GOOGLE_PLACES_API_KEY: {
    group: 'integrations',
    schema: optionalString,
    unset: 'simulated listing data',
    meaning: "Real Google listing data for the analysis tool; without it the analysis says its data is simulated.",
  },
  YELP_API_KEY: {
    group: 'integrations',
    schema: optionalString,
    unset: 'simulated listing data',
    meaning: 'Real Yelp listing data for the analysis tool; without it the analysis says its data is simulated.',
  },
  ...remoteUrlSettings,
  LOG_LEVEL: {
    group: 'server',
    schema: z.enum(LOG_LEVELS).default('info'),
    meaning: `Pino log level: ${LOG_LEVELS.map((l) => `\`${l}\``).join(', ')}.`,
  },
  SITE_ROOT: {
    group: 'server',
    schema: z.string().min(1).optional(),
    unset: 'the repository',
    meaning: "Folder holding `shell/dist` and each remote's releases (or `mfe-<name>/dist`).",
  },
  BODY_LIMIT: {
    group: 'requests',
    schema: byteSize('100kb', '100kb or 1mb'),
    meaning: 'Largest accepted request body: a larger `Content-Length` is answered 413 before the body is read, a chunked or compressed body is cut at the limit.',
  },
  DISK_MIN_FREE: {
    group: 'server',
    schema: byteSize('50mb', '50mb or 1gb'),
    meaning: "Free space on `DATA_DIR`'s file system under which `/api/health` says the disk is full (`degraded`), before writes start failing.",
  },
  RATE_LIMIT_MULTIPLIER: {
    group: 'requests',
    schema: z.coerce.number({ message: 'Must be a number' }).positive({ message: 'Must be a positive number' }).default(1),
    meaning: 'Multiplies every rate limit (load tests and the browser tests raise it).',
  },
  CONTACT_EMAIL_TO: {
    group: 'mail',
    schema: z.email({ message: 'Must be an email address' }).default('hello@trivalleyai.com'),
    meaning: 'Who receives contact-form mails.',
  },
  MAIL_FROM: {
    group: 'mail',
    schema: z.string().min(3).default('Tri-Valley AI website <no-reply@trivalleyai.com>'),
    meaning: 'Sender of those mails.',
  },
  TRUST_PROXY: {
    group: 'requests',
    schema: aSwitch,
    unset: '`false`',
    meaning: "`true` behind a reverse proxy: client addresses and https come from `X-Forwarded-*`, and the proxy's `X-Request-Id` and `traceparent` are kept.",
  },
  TRUST_PROXY_HOPS: {
    group: 'requests',
    schema: whole(1, 10, 1),
    meaning: 'With `TRUST_PROXY`: how many proxies append to `X-Forwarded-For`; the client address is that many entries from the right, never the leftmost one, which a client can write itself.',
  },
  HEADERS_TIMEOUT: {
    group: 'requests',
    schema: duration('20s'),
    meaning: 'A request whose header block has not fully arrived by then is answered 408 and closed (slowloris). Durations: `20s`, `500ms`, `1m`, or milliseconds.',
  },
  REQUEST_TIMEOUT: {
    group: 'requests',
    schema: duration('30s'),
    meaning: 'The whole request (headers and body) must have arrived by then, else 408 and closed; at least `HEADERS_TIMEOUT`.',
  },
  BODY_IDLE_TIMEOUT: {
    group: 'requests',
    schema: duration('15s'),
    meaning: 'A body that stops arriving for this long while the API reads it is answered 408 and the connection closed.',
  },
  ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: {
    group: 'integrations',
    schema: aSwitch,
    unset: '`false`',
    meaning: '**Tests only**: lets the website analyzer read loopback addresses on any port, so browser tests can analyze a local test site. Refused with `NODE_ENV=production`.',
  },
  SSR_TIMEOUT_MS: {
    group: 'rendering',
    schema: whole(1, 10_000, 150),
    meaning: "How long one remote's server render may take; past it the page goes out with that remote's area rendered in the browser.",
  },
  SSR_CONCURRENCY: {
    group: 'rendering',
    schema: whole(1, 64, 4),
    meaning: 'Server renders running at once; the next ones wait their turn, first come first served.',
  },
  SSR_QUEUE_MS: {
    group: 'rendering',
    schema: whole(0, 60_000, 2_000),
    meaning: 'A page that waited longer than this for its turn goes out rendered in the browser.',
  },
  RENDER_CACHE_MB: {
    group: 'rendering',
    schema: z.coerce.number({ message: 'Must be a number' }).min(0, { message: 'Must be 0 or more' }).max(4096).default(64),
    meaning: 'Memory for rendered public pages; `0` turns the render cache off.',
  },
  DB_STATEMENT_TIMEOUT_MS: {
    group: 'database',
    schema: whole(0, 3_600_000, 5_000),
    meaning: "The longest one statement of a request or a job may run (waiting on a lock included) before it is cancelled and the request answers 503 `database_unavailable`; on SQLite, how long a statement waits for another process's write lock. `0` turns it off; migrations have no limit.",
  },
  DB_ACQUIRE_TIMEOUT_MS: {
    group: 'database',
    schema: whole(100, 600_000, 5_000),
    meaning: 'The longest a request waits for a database connection before it answers 503 `database_unavailable`.',
  },
  READY_DB_GRACE_MS: {
    group: 'database',
    schema: whole(0, 3_600_000, 30_000),
    meaning: '`/api/health/ready` answers 503 only once the database has answered nothing for this long; a slow query or a locked table never fails it.',
  },
  MEDIA_JOBS: {
    group: 'media',
    schema: whole(1, 64, 1),
    meaning: 'Images whose variants are made at once per instance, each in a child process.',
  },
  CONTACT_MAIL_RATE: {
    group: 'mail',
    schema: z.coerce.number({ message: 'Must be a number' }).min(0.1, { message: 'Must be at least 0.1' }).max(1000).default(5),
    meaning: 'Owner mails sent a second at most while the outbox drains a queue.',
  },
  MEDIA_QUEUE: {
    group: 'media',
    schema: whole(0, 1000, 8),
    meaning: 'Uploaded images stored and waiting their turn beyond those; past it an upload answers 503 `media_busy` with `Retry-After`.',
  },
  MEDIA_THREADS: {
    group: 'media',
    schema: whole(1, 64, 1),
    meaning: 'libvips threads per image operation.',
  },
  MEDIA_CACHE_MB: {
    group: 'media',
    schema: whole(0, 4096, 0),
    meaning: "libvips' operation cache; an upload is processed once, so it is off (`0`) by default.",
  },
  MEDIA_MAX_MB: {
    group: 'media',
    schema: whole(128, 65536, 1024),
    meaning: "Memory one image's child process may take; past it the child is stopped and the image failed.",
  },
  SITEMAP_URLS_PER_FILE: {
    group: 'rendering',
    schema: z.coerce
      .number({ message: 'Must be a number' })
      .int()
      .min(2, { message: 'Must be at least 2' })
      .max(50_000, { message: 'Must be at most 50000 (the sitemap protocol allows no more per file)' })
      .default(10_000),
    meaning: "Past this many addresses `/sitemap.xml` is a sitemap index of parts of at most this many (2 to 50000, the protocol's limit).",
  },
  RETENTION_DELIVERY_DAYS: {
    group: 'retention',
    schema: whole(1, 3650, 30),
    meaning: 'Finished outgoing webhook deliveries and their attempts are deleted after this many days.',
  },
  RETENTION_EVENT_DAYS: {
    group: 'retention',
    schema: whole(1, 3650, 90),
    meaning: 'Raw tracking events older than this many days are deleted, every complete day rolled up into daily counts first.',
  },
  RETENTION_ANALYSIS_DAYS: {
    group: 'retention',
    schema: whole(1, 3650, 365),
    meaning: 'Stored analyses are deleted after this many days, unless their permalink was opened in the last 90.',
  },
  RETENTION_RELEASE_DAYS: {
    group: 'retention',
    schema: whole(1, 3650, 30),
    meaning: 'With PostgreSQL: shared releases this recent are never pruned.',
  },
  RETENTION_RELEASE_KEEP: {
    group: 'retention',
    schema: whole(1, 1000, 10),
    meaning: "With PostgreSQL: besides its pointer, each remote keeps this many of its rollback stack's last versions.",
  },
  RETENTION_RELEASE_COUNT_DAYS: {
    group: 'retention',
    schema: whole(1, 3650, 14),
    meaning: 'The per-minute page views and errors of each release are kept this many days.',
  },
  RELEASE_ERROR_RATE_PERCENT: {
    group: 'release-errors',
    schema: z.coerce.number({ message: 'Must be a number' }).gt(0, { message: 'Must be more than 0' }).max(100).default(2),
    meaning: 'A served release is failing while its errors (server render errors and fallbacks plus browser errors) per page view are at least this many percent, over the two settings below.',
  },
  RELEASE_ERROR_MIN_PAGE_VIEWS: {
    group: 'release-errors',
    schema: whole(1, 1_000_000, 20),
    meaning: 'The fewest page views in the window over which a release can be failing.',
  },
  RELEASE_ERROR_WINDOW_MINUTES: {
    group: 'release-errors',
    schema: whole(1, 1440, 15),
    meaning: 'The window errors per release are counted over (every instance added up); a failing release makes `/api/health` say `degraded` and raises an alert.',
  },
  RELEASE_ERROR_MIN_REPORTERS: {
    group: 'release-errors',
    schema: whole(1, 10_000, 5),
    meaning: "Browser errors count toward a release's rate (and a canary's) only once this many distinct visitors (addresses, IPv6 per /64) reported them in the window; server render errors always count.",
  },
  RELEASE_ERROR_COUNTING: {
    group: 'release-errors',
    schema: z.enum(['on', 'off'], { message: 'Must be on or off' }).default('on'),
    meaning: '`off` counts nothing per release, only to measure what counting costs: health and alerts then see no release failing.',
  },
  RELEASE_CANARY_MAX_RATE_PERCENT: {
    group: 'release-errors',
    schema: z.coerce.number({ message: 'Must be a number' }).gt(0, { message: 'Must be more than 0' }).max(100).default(2),
    meaning: 'A canary is rolled back by itself when its errors per page view are at least this many percent, and at least `RELEASE_CANARY_RATIO` times the served release\'s.',
  },
  RELEASE_CANARY_RATIO: {
    group: 'release-errors',
    schema: z.coerce.number({ message: 'Must be a number' }).min(1, { message: 'Must be at least 1' }).max(1000).default(3),
    meaning: "How many times the served release's error rate a canary's must reach to be rolled back.",
  },
  RELEASE_CANARY_MIN_VIEWS: {
    group: 'release-errors',
    schema: whole(1, 1_000_000, 50),
    meaning: 'The fewest page views of a canary since it started (within `RELEASE_ERROR_WINDOW_MINUTES`) over which it can be rolled back.',
  },
  RELEASE_CANARY_CHECK_MS: {
    group: 'release-errors',
    schema: whole(1000, 600_000, 10_000),
    meaning: 'How often one instance (holding a lease) checks the canaries.',
  },
  RELEASE_SMOKE_RENDER_TIMEOUT_MS: {
    group: 'releases',
    schema: whole(100, 20_000, 10_000),
    meaning: 'Before an uploaded release is stored, every page it declares is rendered on a worker thread; one that throws, or a release not rendered within this long, is refused with 400 `smoke_render_failed`.',
  },
  RELEASE_IMPORT_BUILDS: {
    group: 'releases',
    schema: z.enum(['first', 'changed', 'off'], { message: 'Must be first, changed or off' }).default('first'),
    meaning: "`first`: on a site's first start each built app is imported as its first release, after which only a deploy changes what is served. `changed` (what `npm start` sets) also imports a build that differs from a served imported build; `off` serves a dist in place while its app has no release.",
  },
  RELEASE_POLL_MS: {
    group: 'releases',
    schema: whole(100, 3_600_000, 5_000),
    meaning: 'With PostgreSQL: how often an instance also checks the shared release pointers, behind the notice a deploy sends.',
  },
  ...RELEASE_POLICY_SETTINGS,
  RELEASE_TRUSTED_KEYS: {
    group: 'releases',
    schema: z
      .string()
      .optional()
      .transform((value, ctx) => {
        try {
          return parseTrustedKeys(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
          return z.NEVER;
        }
      }),
    unset: 'releases are not signed',
    meaning: "Ed25519 public keys trusted to sign releases, each for the apps it names (`<apps>=<SPKI base64>`, comma-separated); set, a remote's release runs only when a key trusted for it signed exactly its files.",
  },
  DEV_OVERRIDE_HOURS: {
    group: 'releases',
    schema: z.coerce.number({ message: 'Must be a number' }).positive({ message: 'Must be a positive number' }).max(24 * 30, { message: 'Must be at most 720 (30 days)' }).default(8),
    meaning: 'How long a development override link, and the cookie it sets, lasts.',
  },
  PREVIEW_SECRET: {
    group: 'secrets',
    schema: z
      .string()
      .min(32, { message: 'Must be at least 32 characters (e.g. openssl rand -hex 32)' })
      .max(512)
      .optional(),
    unset: 'random per process',
    meaning: 'Signs the preview links of staged releases and the development override links; the same on every instance. Unset, links work on the instance that made them until it restarts.',
  },
  METRICS_TOKEN: {
    group: 'observability',
    schema: z
      .string()
      .min(16, { message: 'Must be at least 16 characters (e.g. openssl rand -hex 32)' })
      .max(512)
      .refine((v) => !/\s/.test(v), { message: 'Must not contain spaces' })
      .optional(),
    unset: 'no metrics',
    meaning: 'Turns on `GET /metrics` (Prometheus), answered only with `Authorization: Bearer <token>`. Unset, nothing is counted and `/metrics` is an unknown path.',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    group: 'observability',
    schema: httpUrl,
    unset: 'no tracing',
    meaning: 'Turns on OpenTelemetry tracing, spans sent as OTLP/HTTP to `<endpoint>/v1/traces`.',
  },
  OTEL_SERVICE_NAME: {
    group: 'observability',
    schema: z.string().min(1).max(200).default('site-api'),
    meaning: 'The `service.name` the spans are filed under.',
  },
  NODE_ENV: {
    group: 'server',
    schema: z.string().optional(),
    unset: '`production`',
    meaning: "`node api/dist/server.js` sets `production` when unset (after reading the configuration), so pages render with React's production build; set another value only to debug React on the server.",
  },
} satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;

/** The zod object shape of a table of settings: each name to its schema. */
export function shapeOf<T extends Record<string, Setting>>(settings: T): { [K in keyof T]: T[K]['schema'] } {
  return Object.fromEntries(Object.entries(settings).map(([name, setting]) => [name, setting.schema])) as { [K in keyof T]: T[K]['schema'] };
}

/** The default as docs/configuration.md writes it: the schema's own default value, else what unset means. */
export function documentedDefault(setting: Setting): string {
  if (setting.schema instanceof z.ZodDefault) return `\`${String(setting.schema.def.defaultValue)}\``;
  return setting.unset ?? 'unset';
}
