/** Row types of the request limits' tables, joined into `Database` (src/db/schema.ts). */
export interface LimitsTables {
  rate_limit_windows: RateLimitWindowTable;
}

/** Requests counted for one token in one window, summed by every server process (PostgreSQL only). */
export interface RateLimitWindowTable {
  /** SHA-256 of the token, never the token itself. */
  token_hash: string;
  /** The window's number: its start in milliseconds since the epoch over its length. */
  window_number: number;
  count: number;
}
