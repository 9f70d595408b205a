import type { ColumnsOf } from "../db/columns.js";
import type { SsoTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const ssoColumns: ColumnsOf<SsoTables> = {
  saml_providers: {
    id: "not null",
    organization_id: "not null",
    label: "not null",
    entity_id: "null",
    certificate: "null",
    sso_url: "null",
    default_team_id: "null",
    default_role: "null",
    created_at: "not null",
  },
  sso_logins: {
    request_id: "not null",
    browser_hash: "not null",
    provider_id: "not null",
    nonce: "null",
    code_verifier: "null",
    next: "not null",
    expires_at: "not null",
  },
  sso_assertions: { provider_id: "not null", assertion_id: "not null", expires_at: "not null" },
};
