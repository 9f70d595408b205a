import type { JsonText } from "../db/codecs.js";
import type { Role } from "../db/schema.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface OidcTables {
  oidc_providers: OidcProviderTable;
}

export interface OidcProviderTable {
  id: string;
  organization_id: string;
  label: string;
  issuer: string;
  client_id: string;
  /** Encrypted under the server key and bound to the provider (`sealClientSecret`); null for a public client. */
  client_secret: JsonText<Record<string, string>> | null;
  /** Requested at sign-in, `openid` among them. */
  scopes: JsonText<string[]>;
  default_team_id: string | null;
  /** Null: users signing in for the first time are guests. */
  default_role: Role | null;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends OidcTables {}
}
