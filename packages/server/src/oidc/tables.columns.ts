import type { ColumnsOf } from "../db/columns.js";
import type { OidcTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const oidcColumns: ColumnsOf<OidcTables> = {
  oidc_providers: {
    id: "not null",
    organization_id: "not null",
    label: "not null",
    issuer: "not null",
    client_id: "not null",
    client_secret: "null",
    scopes: "not null",
    default_team_id: "null",
    default_role: "null",
    created_at: "not null",
  },
};
