import type { Role } from "../db/schema.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface SsoTables {
  saml_providers: SamlProviderTable;
}

/** A provider missing its entity id, certificate or sign-in URL is pending. */
export interface SamlProviderTable {
  id: string;
  organization_id: string;
  label: string;
  entity_id: string | null;
  certificate: string | null;
  sso_url: string | null;
  default_team_id: string | null;
  /** Null: users signing in for the first time are guests. */
  default_role: Role | null;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends SsoTables {}
}
