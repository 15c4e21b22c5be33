import type { Insertable, Selectable } from 'kysely';
import type { AdminTables } from '../admin/admin-schema';
import type { AnalysisTables } from '../analysis/analysis-schema';
import type { BlogTables } from '../posts/blog-schema';
import type { ContactTables } from '../contact/contact-schema';
import type { WebhooksOutTables } from '../outgoing-webhooks/outgoing-webhooks-schema';
import type { MediaTables } from '../media/media-schema';
import type { ReleaseCountTables } from '../release-errors/release-counts-schema';

/*
 * Column conventions, so one code path works on SQLite and PostgreSQL:
 * ids are text (UUIDs), timestamps are ISO-8601 UTC text (they sort as text), structured values are
 * JSON text, counters are `integer`, booleans are `integer` 0/1.
 */

export interface EventsTable {
  id: string;
  name: string;
  /** JSON object text, or null when the event had no properties. */
  props: string | null;
  path: string;
  /** When the browser says it happened (falls back to `received_at`). */
  at: string;
  received_at: string;
}

/** Tracking events of one UTC day rolled up (migrations/0018-event-daily.ts): page views per path and props, others per name. */
/** A UTC day whose events event_daily holds whole (migration 0022). */
export interface EventDaysRolledTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  rolled_at: string;
}

export interface EventDailyTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  name: string;
  /** A page view's path; '' for other events. */
  path: string;
  /** A page view's props text (its referrer class); '' for none. */
  props: string;
  count: number;
}

/** A lease on work that one instance alone must do (migrations/0006-leases.ts). */
export interface LeasesTable {
  name: string;
  /** The instance holding it (a random id per process). */
  holder: string;
  expires_at: string;
}

/** Releases shared by every instance on PostgreSQL (migrations/0007-releases.ts, site/releases/releases-repository.ts). */
export interface ReleaseTables {
  release_blobs: { hash: string; size: number; content: string };
  /** `staged_at`: uploaded staged, not promoted (0028); null once served. */
  releases: { remote: string; version: string; digest: string; manifest: string; files: string; created_at: string; staged_at: string | null };
  /** `log` (named by 0007) holds the history's facts as a JSON object (release-format.ts ReleaseHistory), no log: the deploy log is the one log. */
  release_pointers: { remote: string; version: string; since: string; stack: string; log: string };
  release_instances: { instance: string; remote: string; version: string | null; since: string | null; problem: string | null; reported_at: string };
  /** migrations/0023-deploys.ts */
  deploy_tokens: {
    id: string;
    name: string;
    apps: string;
    token_hash: string;
    created_at: string;
    last_used_at: string | null;
    last_used_from: string | null;
    revoked_at: string | null;
  };
  /**
   * Canaries (migrations/0029-release-canaries.ts, site/releases/canaries-repository.ts): a staged release of a remote
   * served to `percent` of visitors; one running per app (`ended_at` null), kept after it ends with how it ended.
   */
  release_canaries: {
    id: string;
    app: string;
    version: string;
    current: string;
    percent: number;
    started_at: string;
    promote_after: string | null;
    by: string;
    ended_at: string | null;
    outcome: string | null;
    reason: string | null;
  };
  deploy_log: {
    id: string;
    at: string;
    app: string;
    action: string;
    version: string | null;
    previous: string | null;
    result: string;
    by: string;
    from_address: string | null;
    message: string | null;
    /** Where the release came from (migration 0040): its upload's notes, commit sha and pipeline URL. */
    notes: string | null;
    commit_sha: string | null;
    ci_url: string | null;
  };
}

/** Every table the API owns. Add a table here and a migration in `migrations/`. */
export interface Database extends BlogTables, ContactTables, AnalysisTables, AdminTables, ReleaseTables, WebhooksOutTables, MediaTables, ReleaseCountTables {
  events: EventsTable;
  event_daily: EventDailyTable;
  event_days_rolled: EventDaysRolledTable;
  leases: LeasesTable;
}

export type EventRow = Selectable<EventsTable>;
export type NewEventRow = Insertable<EventsTable>;
