import type { ColumnsOf } from "../db/columns.js";
import type { ChangeRequestsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const changeRequestsColumns: ColumnsOf<ChangeRequestsTables> = {
  change_requests: {
    id: "not null",
    space_id: "not null",
    number: "not null",
    status: "not null",
    subject: "not null",
    created_by: "not null",
    created_at: "not null",
    updated_at: "not null",
    recency: "not null",
    revision_id: "not null",
    revision_initial_id: "not null",
    revision_merged_ancestor_id: "null",
    revision_merged_id: "null",
    description: "null",
    links: "null",
  },
  change_request_contributors: {
    change_request_id: "not null",
    user_id: "not null",
    changes: "not null",
    changed_at: "null",
  },
};
