/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Timestamps are
 * ISO 8601 text, as everywhere.
 */
export interface AppPreviewsTables {
  app_sessions: AppSessionTable;
}

/** A browser signed in to the previews with an API token: it lasts while the token does, at most `expires_at`. */
export interface AppSessionTable {
  /** SHA-256 (hex) of the id the cookie carries: a copy of the table lets nobody in. */
  id_hash: string;
  user_id: string;
  /** The token it was opened with: revoking the token ends the session. */
  token_id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
}

declare module "../db/schema.js" {
  interface Database extends AppPreviewsTables {}
}
