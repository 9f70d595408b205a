import type { Role } from "../db/schema.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface SsoTables {
  saml_providers: SamlProviderTable;
  sso_logins: SsoLoginTable;
  sso_assertions: SsoAssertionTable;
}

/** A sign-in through a provider, begun and not yet finished: ten minutes at most. */
export interface SsoLoginTable {
  /** The SAML request's id (its `InResponseTo` comes back), or the OpenID Connect `state`. */
  request_id: string;
  /** SHA-256 (hex) of the cookie the browser that began it holds. */
  browser_hash: string;
  provider_id: string;
  /** OpenID Connect only: what the ID token must carry, and PKCE's verifier. */
  nonce: string | null;
  code_verifier: string | null;
  /** Where to go once signed in. */
  next: string;
  expires_at: string;
}

/** A SAML assertion that signed someone in: refused if it comes again before it expires. */
export interface SsoAssertionTable {
  provider_id: string;
  assertion_id: string;
  expires_at: string;
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
