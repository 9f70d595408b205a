import type { ColumnsOf } from "../db/columns.js";
import type { InvitesTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const invitesColumns: ColumnsOf<InvitesTables> = {
  invite_links: {
    id: "not null",
    organization_id: "not null",
    role: "null",
    created_by: "null",
    created_at: "not null",
    space_id: "null",
    collection_id: "null",
  },
  email_invitations: {
    id: "not null",
    token_hash: "not null",
    organization_id: "not null",
    user_id: "not null",
    created_at: "not null",
    expires_at: "not null",
    used_at: "null",
  },
};
