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

export interface ReleaseCountTables {
  release_counts: ReleaseCountsTable;
}
