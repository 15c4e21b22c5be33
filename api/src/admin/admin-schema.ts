/** Tables of the admin panel (see migrations/0005-admin.ts). Conventions as in schema.ts. */
export interface AdminSessionsTable {
  /** SHA-256 (hex) of the session token the cookie holds; the token itself is never stored. */
  id_hash: string;
  created_at: string;
  last_seen_at: string;
  active_section: string;
}

export interface AlertSettingsTable {
  type: string;
  enabled: number;
  email: number;
  threshold: number | null;
  updated_at: string;
}

export interface AlertsTable {
  id: string;
  type: string;
  severity: string;
  title: string;
  message: string;
  detail: string | null;
  created_at: string;
  email_sent: number;
  email_sent_at: string | null;
  acknowledged_at: string | null;
}

export interface AdminStateTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: string;
}


export interface AdminTables {
  admin_sessions: AdminSessionsTable;
  alert_settings: AlertSettingsTable;
  alerts: AlertsTable;
  admin_state: AdminStateTable;
}
