import type { ColumnsOf } from "../db/columns.js";
import type { MembersTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const membersColumns: ColumnsOf<MembersTables> = {
  memberships: {
    organization_id: "not null",
    user_id: "not null",
    role: "null",
    joined_at: "not null",
    last_seen_at: "null",
    sso: "not null",
  },
  content_permissions: {
    content_id: "not null",
    principal_id: "not null",
    organization_id: "not null",
    space_id: "null",
    collection_id: "null",
    user_id: "null",
    team_id: "null",
    role: "not null",
    created_at: "not null",
  },
};
