/**
 * Row types of the tables the `auth` kernel writes (sessions, the server's secrets), joined into
 * `Database` (src/db/schema.ts): types only, so that the schema imports nothing that imports it.
 */

export interface ServerSecretTable {
  name: string;
  value: string;
}

export type SecretKeyTables = {
  server_secrets: ServerSecretTable;
};

export interface SessionTables {
  sessions: SessionTable;
}

/** How a person proved who they are when the session began. */
export type SignInMethod = "password" | "link" | "oidc" | "saml";

/** A signed-in browser. */
export interface SessionTable {
  /** The session's public name, as the API lists it: not the cookie's secret. */
  id: string;
  /** SHA-256 (hex) of the secret the cookie carries: a copy of the table lets nobody in. */
  secret_hash: string;
  user_id: string;
  method: SignInMethod;
  /** The browser's `User-Agent`, shortened: what a person recognises in the list of their sessions. */
  device: string | null;
  address: string | null;
  created_at: string;
  last_seen_at: string;
  /** The absolute end, whatever its use; unused for `SESSION_IDLE_MS` it ends earlier. */
  expires_at: string;
}
