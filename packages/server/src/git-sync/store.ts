import { lockSpace } from "../change-requests/index.js";
import type { Clock, IdGenerator } from "../context.js";
import { flag, fromJson, timestamp, toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { recordEvent } from "../events/record.js";
import { enqueue, jobType } from "../jobs/queue.js";
import { setSpaceGitSync } from "../spaces/index.js";
import { redirectSource } from "./pages.js";
import { spaceGitSyncOf } from "./remote.js";
import type {
  GitRepositoryColumns,
  GitSyncConnectionTable,
  GitSyncDirection,
  GitSyncOperationTable,
  GitSyncStage,
  GitSyncState,
} from "./tables.js";

export type OperationRow = GitSyncOperationTable;

/** An operation a runner holds, with its space's organization (where its events go). */
export type ClaimedOperation = OperationRow & { organization_id: string };

/** The job that runs a space's queued operations, one after the other. */
export const runGitSync = jobType<{ spaceId: string }>("git-sync.run");

/** What an import or export asks for, as stored with it. */
export interface RequestedOperation extends GitRepositoryColumns {
  spaceId: string;
  direction: GitSyncDirection;
  /** The request's `timestamp`, if it gave one. */
  timestamp?: string;
  requestedBy: string;
  force: boolean;
  standalone: boolean;
  commitMessage?: string;
}

/**
 * Queues an operation and the job that runs the space's operations, in the caller's transaction: the
 * operation exists exactly when its job does.
 */
export async function queueOperation(
  tx: Db,
  context: { clock: Clock; ids: IdGenerator },
  requested: RequestedOperation,
): Promise<void> {
  const now = timestamp(context.clock.now());
  await tx
    .insertInto("git_sync_operations")
    .values({
      id: context.ids.next(),
      space_id: requested.spaceId,
      url: requested.url,
      credentials: requested.credentials,
      ref: requested.ref,
      project_directory: requested.project_directory,
      tree_url: requested.tree_url,
      commit_url: requested.commit_url,
      direction: requested.direction,
      state: "queued",
      stage: null,
      ordering: requested.timestamp ?? now,
      requested_by: requested.requestedBy,
      force: flag(requested.force),
      standalone: flag(requested.standalone),
      commit_message: requested.commitMessage ?? null,
      lease_until: null,
      started_at: now,
      updated_at: now,
      ended_at: null,
      error: null,
      commit: null,
      revision: null,
      change_request_id: null,
    })
    .execute();
  await enqueue(tx, context, runGitSync, { spaceId: requested.spaceId });
}

/**
 * Takes the space's first operation not ended: "busy" while another runner holds it (its lease not
 * over), null when none is left. The space's row lock makes two runners, and a request queueing an
 * operation, take their turns.
 */
export async function claimNextOperation(
  tx: Db,
  spaceId: string,
  { now, leaseMs, ids }: { now: Date; leaseMs: number; ids: IdGenerator },
): Promise<ClaimedOperation | "busy" | null> {
  const space = await lockSpace(tx, spaceId);
  const next = await tx
    .selectFrom("git_sync_operations")
    .selectAll()
    .where("space_id", "=", spaceId)
    .where("state", "in", ["queued", "running"])
    .orderBy("ordering")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  if (!next) return null;
  if (next.state === "running" && next.lease_until !== null && next.lease_until > timestamp(now))
    return "busy";
  const claimed = {
    state: "running" as const,
    stage: "repo_fetch" as const,
    lease_until: timestamp(now, leaseMs),
    updated_at: timestamp(now),
  };
  await tx.updateTable("git_sync_operations").set(claimed).where("id", "=", next.id).execute();
  const operation = { ...next, ...claimed, organization_id: space.organization_id };
  // Taken over after a runner died, it started already.
  if (next.state === "queued") await recordGitSyncEvent(tx, { now, ids }, operation);
  return operation;
}

/** `space_gitsync_started`, or with the outcome `space_gitsync_completed`, by whoever asked for it. */
function recordGitSyncEvent(
  tx: Db,
  { now, ids }: { now: Date; ids: IdGenerator },
  operation: ClaimedOperation,
  outcome?: OperationOutcome,
) {
  const commit = outcome?.commit ?? null;
  const revision = outcome?.revision ?? null;
  const changeRequest = outcome?.changeRequestId ?? null;
  return recordEvent(
    tx,
    { clock: { now: () => now }, ids },
    {
      organizationId: operation.organization_id,
      type: outcome ? "space_gitsync_completed" : "space_gitsync_started",
      actorId: operation.requested_by,
      spaceId: operation.space_id,
      data: {
        space: operation.space_id,
        direction: operation.direction,
        ...(outcome && { state: outcome.state }),
        ...(commit !== null && { commit }),
        ...(revision !== null && { revision }),
        ...(changeRequest !== null && { changeRequest }),
      },
    },
  );
}

export async function setStage(db: Db, operationId: string, stage: GitSyncStage, now: Date): Promise<void> {
  await db
    .updateTable("git_sync_operations")
    .set({ stage, updated_at: timestamp(now) })
    .where("id", "=", operationId)
    .where("state", "=", "running")
    .execute();
}

/**
 * When the space is connected to a repository: queues the export of a merge into its main content, as
 * one commit by the merger with the change request's subject and number.
 */
export async function queueMergeExport(
  tx: Db,
  context: { clock: Clock; ids: IdGenerator },
  merge: { spaceId: string; userId: string; subject: string; number: number },
): Promise<void> {
  const connection = await connectionOf(tx, merge.spaceId);
  if (connection?.status !== "active") return;
  await queueFromConnection(tx, context, connection, {
    direction: "export",
    requestedBy: merge.userId,
    commitMessage: `${merge.subject || "Change request"} (#${merge.number})`,
  });
}

/** Queues an operation on the connection's repository, with its stored credentials. */
export function queueFromConnection(
  tx: Db,
  context: { clock: Clock; ids: IdGenerator },
  connection: GitSyncConnectionTable,
  asked: { direction: GitSyncDirection; requestedBy: string; commitMessage?: string },
): Promise<void> {
  return queueOperation(tx, context, {
    spaceId: connection.space_id,
    url: connection.url,
    credentials: connection.credentials,
    ref: connection.ref,
    project_directory: connection.project_directory,
    tree_url: connection.tree_url,
    commit_url: connection.commit_url,
    force: false,
    standalone: false,
    ...asked,
  });
}

/** Whether an import of the space waits to start: a push or a poll then queues no other. */
export async function hasQueuedImport(db: Db, spaceId: string): Promise<boolean> {
  const queued = await db
    .selectFrom("git_sync_operations")
    .select("id")
    .where("space_id", "=", spaceId)
    .where("state", "=", "queued")
    .where("direction", "=", "import")
    .executeTakeFirst();
  return queued !== undefined;
}

/** Stores the push webhook's (encrypted) secret of a connected space; false when it is not connected. */
export async function setWebhookSecret(tx: Db, spaceId: string, sealed: string, now: Date): Promise<boolean> {
  const { numUpdatedRows } = await tx
    .updateTable("git_sync_connections")
    .set({ webhook_secret: sealed, updated_at: timestamp(now) })
    .where("space_id", "=", spaceId)
    .where("status", "!=", "pending")
    .executeTakeFirst();
  return Number(numUpdatedRows) === 1;
}

/** The connections whose branch is due to be looked at (not since `before`), marked as looked at now. */
export async function takeConnectionsToPoll(
  tx: Db,
  { before, now, limit }: { before: string; now: string; limit: number },
): Promise<GitSyncConnectionTable[]> {
  const due = await tx
    .selectFrom("git_sync_connections")
    .selectAll()
    .where("status", "=", "active")
    .where((eb) => eb.or([eb("polled_at", "is", null), eb("polled_at", "<", before)]))
    .orderBy("polled_at")
    .limit(limit)
    .execute();
  if (due.length > 0)
    await tx
      .updateTable("git_sync_connections")
      .set({ polled_at: now })
      .where(
        "space_id",
        "in",
        due.map((connection) => connection.space_id),
      )
      .execute();
  return due;
}

/** Gives a claimed operation back to the queue, as it was before it was claimed. */
export async function releaseOperation(db: Db, claimed: OperationRow): Promise<void> {
  await db
    .updateTable("git_sync_operations")
    .set({ state: "queued", stage: null, lease_until: null })
    .where("id", "=", claimed.id)
    .where("lease_until", "=", claimed.lease_until)
    .execute();
}

/** How an operation ended. */
export interface OperationOutcome {
  state: Exclude<GitSyncState, "queued" | "running">;
  error?: string;
  commit?: string | null;
  revision?: string | null;
  changeRequestId?: string | null;
}

/** Ends the operation as `claimed`; false when another runner has claimed it since. */
export async function endOperation(
  tx: Db,
  claimed: ClaimedOperation,
  outcome: OperationOutcome,
  { now, ids }: { now: Date; ids: IdGenerator },
): Promise<boolean> {
  const { numUpdatedRows } = await tx
    .updateTable("git_sync_operations")
    .set({
      state: outcome.state,
      stage: null,
      lease_until: null,
      updated_at: timestamp(now),
      ended_at: timestamp(now),
      error: outcome.error ?? null,
      commit: outcome.commit ?? null,
      revision: outcome.revision ?? null,
      change_request_id: outcome.changeRequestId ?? null,
    })
    .where("id", "=", claimed.id)
    .where("state", "=", "running")
    .where("lease_until", "=", claimed.lease_until)
    .executeTakeFirst();
  if (Number(numUpdatedRows) !== 1) return false;
  await recordGitSyncEvent(tx, { now, ids }, claimed, outcome);
  return true;
}

export function connectionOf(db: Db, spaceId: string): Promise<GitSyncConnectionTable | undefined> {
  return db.selectFrom("git_sync_connections").selectAll().where("space_id", "=", spaceId).executeTakeFirst();
}

export function latestOperation(db: Db, spaceId: string): Promise<OperationRow | undefined> {
  return db
    .selectFrom("git_sync_operations")
    .selectAll()
    .where("space_id", "=", spaceId)
    .orderBy("ordering", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * The space is connected to the operation's repository, in sync at `commit` and `revision` (null:
 * left as they were, for an import that became a change request), with the files its pages are in.
 */
export async function recordSync(
  tx: Db,
  operation: OperationRow,
  synced: {
    commit: string | null;
    revision: string | null;
    /** The file of each page, and `.gitbook.yaml`'s redirects to pages; both kept as they were when absent. */
    pages?: {
      paths: ReadonlyMap<string, string>;
      /** Each page's file as the repository has it now: its object id and path from the root. */
      blobs: ReadonlyMap<string, { oid: string; path: string }>;
      redirects: Record<string, string>;
    };
    /** Where the repository moved to (see `movedRepositoryUrl`), kept as its URL from now on. */
    movedTo?: string;
  },
  now: Date,
): Promise<void> {
  const repository: GitRepositoryColumns = {
    url: synced.movedTo ?? operation.url,
    credentials: operation.credentials,
    ref: operation.ref,
    project_directory: operation.project_directory,
    tree_url: operation.tree_url,
    commit_url: operation.commit_url,
  };
  const at = timestamp(now);
  const inSync = {
    status: "active" as const,
    synced_by: operation.requested_by,
    ...(synced.commit !== null && { synced_commit: synced.commit }),
    ...(synced.revision !== null && { synced_revision: synced.revision }),
    ...(synced.pages && { redirects: toJson(synced.pages.redirects) }),
  };
  await tx
    .insertInto("git_sync_connections")
    .values({
      space_id: operation.space_id,
      ...repository,
      synced_commit: null,
      synced_revision: null,
      webhook_secret: null,
      polled_at: null,
      redirects: toJson({}),
      created_at: at,
      updated_at: at,
      ...inSync,
    })
    .onConflict((oc) => oc.column("space_id").doUpdateSet({ ...repository, ...inSync, updated_at: at }))
    .execute();
  await setSpaceGitSync(tx, operation.space_id, spaceGitSyncOf(repository, at));
  if (!synced.pages) return;
  await tx.deleteFrom("git_sync_pages").where("space_id", "=", operation.space_id).execute();
  const { blobs } = synced.pages;
  const rows = [...synced.pages.paths].map(([page_id, path]) => ({
    space_id: operation.space_id,
    page_id,
    path,
    blob_oid: blobs.get(page_id)?.oid ?? null,
    repository_path: blobs.get(page_id)?.path ?? null,
  }));
  // In batches: PostgreSQL takes at most 65,535 parameters a statement.
  for (let i = 0; i < rows.length; i += 1000)
    await tx
      .insertInto("git_sync_pages")
      .values(rows.slice(i, i + 1000))
      .execute();
}

/** The repository refused the credentials: the connection says so until an operation succeeds. */
export async function markUnauthenticated(tx: Db, spaceId: string, now: Date): Promise<void> {
  await tx
    .updateTable("git_sync_connections")
    .set({ status: "unauthenticated", updated_at: timestamp(now) })
    .where("space_id", "=", spaceId)
    .execute();
}

/** The file of each page, as the last operation that succeeded left them. */
export async function pagePaths(db: Db, spaceId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("git_sync_pages")
    .select(["page_id", "path"])
    .where("space_id", "=", spaceId)
    .execute();
  return new Map(rows.map((row) => [row.page_id, row.path]));
}

/** Where each page of the space is in its repository (GitBook's `RevisionPage.git`), as of the last sync. */
export async function pageBlobs(
  db: Db,
  spaceId: string,
): Promise<Map<string, { oid: string; path: string }>> {
  const rows = await db
    .selectFrom("git_sync_pages")
    .select(["page_id", "blob_oid", "repository_path"])
    .where("space_id", "=", spaceId)
    .execute();
  return new Map(
    rows.flatMap(({ page_id, blob_oid: oid, repository_path: path }) =>
      oid !== null && path !== null ? [[page_id, { oid, path }] as const] : [],
    ),
  );
}

/** The page that `.gitbook.yaml` of the space's repository redirects `path` to, if any. */
export async function redirectedPage(db: Db, spaceId: string, path: string): Promise<string | undefined> {
  const connection = await db
    .selectFrom("git_sync_connections")
    .select("redirects")
    .where("space_id", "=", spaceId)
    .executeTakeFirst();
  return connection && fromJson(connection.redirects)[redirectSource(path)];
}

/**
 * Forgets the space's repository: its connection, credentials, page files and operations. One running
 * then finds its operation gone when it ends, and writes nothing.
 */
export async function disconnect(tx: Db, spaceId: string): Promise<void> {
  await setSpaceGitSync(tx, spaceId, null);
  await tx.deleteFrom("git_sync_connections").where("space_id", "=", spaceId).execute();
  await tx.deleteFrom("git_sync_pages").where("space_id", "=", spaceId).execute();
  await tx.deleteFrom("git_sync_operations").where("space_id", "=", spaceId).execute();
}
