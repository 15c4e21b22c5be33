/** Page views and errors of one release in one UTC minute, added up by every instance (migrations/0027-release-counts.ts). */
export interface ReleaseCountsTable {
  app: string;
  release: string;
  /** The minute's start, ISO 8601 UTC. */
  bucket: string;
  page_views: number;
  render_errors: number;
  client_errors: number;
  /** The latest client error message of the minute, as the browser sent it (at most 200 characters). */
  last_error: string | null;
}

/** Who reported a release's browser errors, and the minute they last did (migrations/0039-release-reporters.ts). */
export interface ReleaseReportersTable {
  app: string;
  release: string;
  /** An HMAC of the reporter's address (IPv6 per /64): distinct per visitor, never the address. */
  reporter: string;
  /** The minute's start, ISO 8601 UTC. */
  last_seen: string;
}

export interface ReleaseCountTables {
  release_counts: ReleaseCountsTable;
  release_reporters: ReleaseReportersTable;
}
