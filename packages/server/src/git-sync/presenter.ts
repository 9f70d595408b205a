import type { Schema } from "@quire/api-types";
import { providerOf, repoNameOf } from "./remote.js";
import type { OperationRow } from "./store.js";
import type { GitSyncConnectionTable } from "./tables.js";

/** A space's Git Sync state: its connection, else the repository its latest operation names. */
export function presentGitInfo(
  connection: GitSyncConnectionTable | undefined,
  latest: OperationRow | undefined,
  operationTimeoutMs: number,
): Schema<"GitSyncState"> | undefined {
  const repository = connection ?? latest;
  if (!repository) return undefined;
  const spaceId = connection?.space_id ?? latest?.space_id ?? "";
  return {
    installationId: `git-${spaceId}`,
    installationProvider: providerOf(repository.url),
    installationStatus: connection?.status ?? "pending",
    repoName: repoNameOf(repository.url),
    repoURL: repository.url,
    ref: repository.ref,
    ...(repository.project_directory && { repoProjectDirectory: repository.project_directory }),
    ...(repository.tree_url !== null && { url: repository.tree_url }),
    ...(latest && { operation: presentOperation(latest) }),
    operationTimeout: operationTimeoutMs,
    updatedAt: connection?.updated_at ?? latest?.updated_at ?? "",
  };
}

function presentOperation(operation: OperationRow): Schema<"GitSyncStateOperation"> {
  const ended = operation.state !== "queued" && operation.state !== "running";
  return {
    state: operation.state === "queued" ? "running" : operation.state,
    direction: operation.direction,
    ...(!ended && { stage: operation.stage ?? "repo_fetch" }),
    startedAt: operation.started_at,
    ...(operation.ended_at !== null && { endedAt: operation.ended_at }),
    ...(operation.error !== null && { error: operation.error }),
    ...(operation.commit !== null && { commit: operation.commit }),
    ...(operation.revision !== null && { revision: operation.revision }),
    ...(operation.change_request_id !== null && { changeRequest: operation.change_request_id }),
  };
}
