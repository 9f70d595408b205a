/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Timestamps are
 * ISO 8601 text, as everywhere.
 */
export interface AuditTables {
  failed_sign_ins: FailedSignInTable;
}

/**
 * A request whose bearer token authenticated no one and whose path named no organization of the
 * server: it belongs to no organization's audit log, so it is kept apart, by time and address only.
 */
export interface FailedSignInTable {
  occurred_at: string;
  /** The client's address; null when the socket had none (closed). */
  address: string | null;
}

declare module "../db/schema.js" {
  interface Database extends AuditTables {}
}
