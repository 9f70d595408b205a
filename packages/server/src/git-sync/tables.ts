import type { Flag, JsonText } from "../db/codecs.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface GitSyncTables {
  git_sync_connections: GitSyncConnectionTable;
  git_sync_operations: GitSyncOperationTable;
  git_sync_pages: GitSyncPageTable;
}

/** Where a repository lives and how to reach it: a connection's, and each operation's own copy. */
export interface GitRepositoryColumns {
  /** Without credentials. */
  url: string;
  /** `user:password`, encrypted under the server key (bound to the space), or null. */
  credentials: string | null;
  ref: string;
  /** "" for the repository's top directory. */
  project_directory: string;
  tree_url: string | null;
  commit_url: string | null;
}

export type GitSyncStatus = "pending" | "active" | "unauthenticated";

/** A space's repository, once an operation was asked for; `active` once one succeeded (connected). */
export interface GitSyncConnectionTable extends GitRepositoryColumns {
  space_id: string;
  status: GitSyncStatus;
  /** The commit and revision last found equal, on either side: what the next import is merged from. */
  synced_commit: string | null;
  synced_revision: string | null;
  /** Who asked for the operation that last succeeded: imports from pushes and polls are in their name. */
  synced_by: string;
  /** The push webhook's secret, encrypted like the credentials; null until one is made. */
  webhook_secret: string | null;
  /** When the branch was last looked at by the poll. */
  polled_at: string | null;
  /**
   * `.gitbook.yaml`'s redirects as of the last sync, each source path (`redirectSource`) to the id of
   * the page its target file holds; published sites send visitors of a source there.
   */
  redirects: JsonText<Record<string, string>>;
  created_at: string;
  updated_at: string;
}

export type GitSyncDirection = "import" | "export";
export type GitSyncState = "queued" | "running" | "success" | "failure" | "timeout";
export type GitSyncStage = "repo_fetch" | "config_check" | "content_process" | "finalize";

/** One import or export; a space's run one at a time in the order of (`ordering`, `id`). */
export interface GitSyncOperationTable extends GitRepositoryColumns {
  id: string;
  space_id: string;
  direction: GitSyncDirection;
  state: GitSyncState;
  stage: GitSyncStage | null;
  /** The request's `timestamp`, else when it was asked for. */
  ordering: string;
  requested_by: string;
  force: Flag;
  standalone: Flag;
  commit_message: string | null;
  /** A running operation whose lease ended was left by a runner that died: it may be taken again. */
  lease_until: string | null;
  started_at: string;
  updated_at: string;
  ended_at: string | null;
  error: string | null;
  commit: string | null;
  revision: string | null;
  change_request_id: string | null;
}

/** Which file of the repository holds which page, as of the last operation that succeeded. */
export interface GitSyncPageTable {
  space_id: string;
  page_id: string;
  path: string;
  /** The object id of the file as the repository had it then; null for a sync recorded before. */
  blob_oid: string | null;
  /** The file's path from the repository's root (`path` is from the content's: `.gitbook.yaml`'s `root`). */
  repository_path: string | null;
}

declare module "../db/schema.js" {
  interface Database extends GitSyncTables {}
}
