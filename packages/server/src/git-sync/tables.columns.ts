import type { ColumnsOf } from "../db/columns.js";
import type { GitSyncTables } from "./tables.js";

const repository = {
  url: "not null",
  credentials: "null",
  ref: "not null",
  project_directory: "not null",
  tree_url: "null",
  commit_url: "null",
} as const;

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const gitSyncColumns: ColumnsOf<GitSyncTables> = {
  git_sync_connections: {
    space_id: "not null",
    ...repository,
    status: "not null",
    synced_commit: "null",
    synced_revision: "null",
    synced_by: "not null",
    webhook_secret: "null",
    polled_at: "null",
    redirects: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
  git_sync_operations: {
    id: "not null",
    space_id: "not null",
    ...repository,
    direction: "not null",
    state: "not null",
    stage: "null",
    ordering: "not null",
    requested_by: "not null",
    force: "not null",
    standalone: "not null",
    commit_message: "null",
    lease_until: "null",
    started_at: "not null",
    updated_at: "not null",
    ended_at: "null",
    error: "null",
    commit: "null",
    revision: "null",
    change_request_id: "null",
  },
  git_sync_pages: {
    space_id: "not null",
    page_id: "not null",
    path: "not null",
    blob_oid: "null",
    repository_path: "null",
  },
};
