import { type BlobStore, sha256Of } from "../blobs/blobs.js";
import type { ReplacingPage } from "../change-requests/index.js";
import { contentEngine } from "../content/engine/index.js";
import { revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Transaction } from "../db/database.js";
import { visibleFilesById } from "../files/index.js";
import { ApiError } from "../http/errors.js";
import { jobType } from "../jobs/queue.js";
import { type AnyTask, defineTask, type JobContext } from "../jobs/runner.js";
import { blobOid, type FetchedTree, type GitClient, GitError, type GitLimits } from "../net/git.js";
import { readRepository, readRepositoryConfig, writeRepositoryPlaced } from "./format.js";
import { importedPages, redirectedPages, repositoryPages, repositoryPath } from "./pages.js";
import { movedRepositoryUrl, remoteOf } from "./remote.js";
import {
  claimNextOperation,
  connectionOf,
  endOperation,
  hasQueuedImport,
  markUnauthenticated,
  type OperationOutcome,
  type OperationRow,
  pagePaths,
  queueFromConnection,
  recordSync,
  releaseOperation,
  runGitSync,
  setStage,
  takeConnectionsToPoll,
} from "./store.js";

/** What Git Sync's operations are run with. */
export interface GitSyncDeps {
  git: GitClient;
  /** What one operation may take. */
  limits: GitLimits;
  /** How often a connected branch is looked at; 0: never. */
  pollMs: number;
  secretKey: string;
  blobs: BlobStore;
  /**
   * Makes a repository's content the space's through a change request made from `base`, merged when
   * `merge` and main is still `base` (commands/import-content.ts: area.ts gives it, tasks use no command).
   */
  importContent(
    tx: Transaction,
    context: { clock: Clock; ids: IdGenerator },
    imported: {
      spaceId: string;
      userId: string;
      subject: string;
      base: string;
      pages: readonly ReplacingPage[];
      files: readonly { id: string; name: string; contentType: string; bytes: Uint8Array }[];
      merge: boolean;
    },
  ): Promise<{ changeRequestId: string; revision: string; merged: boolean }>;
}

const ASSETS = ".gitbook/assets/";
/** Polls look for due branches this often; each branch is due `pollMs` after it was last looked at. */
const POLL_CHECK_EVERY_MS = 60_000;
const POLL_BATCH = 100;
const pollGitBranches = jobType<Record<string, never>>("git-sync.poll");
/** Files of a repository read as text: its pages, summary and configuration. */
const TEXT_FILE = /\.(md|ya?ml)$/i;

/** The space's main content now. */
const spaceOf = (job: JobContext, spaceId: string) =>
  job.db.selectFrom("spaces").select(["revision_id"]).where("id", "=", spaceId).executeTakeFirstOrThrow();

/** An operation that failed for a reason to show its user (no credentials, no private address). */
class OperationFailed extends Error {}

/** The text files of a fetched tree, by path; one that is not UTF-8 is no page of GitBook's. */
function textsOf(tree: FetchedTree): Record<string, string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const texts: Record<string, string> = {};
  for (const [path, { bytes }] of tree.files) {
    if (!TEXT_FILE.test(path)) continue;
    try {
      texts[path] = decoder.decode(bytes);
    } catch {
      // Left out: bytes that are not text are no page.
    }
  }
  return texts;
}

/**
 * The tasks of this area: a space's operations, run one at a time in their order by whichever runner
 * takes them (see `claimNextOperation`). Each ends in one transaction that writes its outcome with
 * what it changed, or nothing: a runner killed on the way leaves the space as it was, and the
 * operation is taken again once its lease ends.
 */
export function gitSyncTasks(deps: GitSyncDeps): AnyTask[] {
  const { git, limits, secretKey } = deps;

  async function fetchTree(operation: OperationRow, deadline: number): Promise<FetchedTree> {
    const remote = remoteOf(operation, { secretKey, spaceId: operation.space_id });
    // Only the project directory is read, and counted against the limit: what Git Sync syncs.
    return git.fetch(
      operation.space_id,
      remote,
      { ...limits, timeoutMs: remaining(deadline) },
      { directory: operation.project_directory },
    );
  }

  const remaining = (deadline: number) => {
    const left = deadline - Date.now();
    if (left <= 0) throw new GitError("timeout", `The operation took longer than ${limits.timeoutMs} ms.`);
    return left;
  };

  /** The repository's new URL for `recordSync`, when the operation found it moved (renamed). */
  const movedFrom =
    (operation: OperationRow) =>
    (reached: string | undefined): { movedTo?: string } => {
      const url = movedRepositoryUrl(operation.url, reached);
      return url === undefined ? {} : { movedTo: url };
    };

  /** The repository's content made the space's: merged when only the repository changed since the last sync. */
  async function runImport(operation: OperationRow, job: JobContext, deadline: number) {
    const spaceId = operation.space_id;
    const moved = movedFrom(operation);
    const tree = await fetchTree(operation, deadline);
    if (tree.commit === null) throw new OperationFailed(`The repository has no branch ${operation.ref}.`);
    const connection = await connectionOf(job.db, spaceId);
    const sameRepository = connection?.url === operation.url && connection.ref === operation.ref;
    if (
      sameRepository &&
      connection?.synced_commit === tree.commit &&
      !operation.force &&
      !operation.standalone
    )
      return async (tx: Transaction) => {
        await recordSync(
          tx,
          operation,
          { commit: tree.commit, revision: null, ...moved(tree.url) },
          job.clock.now(),
        );
        return { state: "success", commit: tree.commit } satisfies OperationOutcome;
      };

    await setStage(job.db, operation.id, "config_check", job.clock.now());
    const texts = textsOf(tree);
    const repository = await readRepository({ files: texts, projectDirectory: operation.project_directory });

    await setStage(job.db, operation.id, "content_process", job.clock.now());
    const space = await spaceOf(job, spaceId);
    // From the revision last in step with the repository: what changed on both sides since is merged.
    const base =
      sameRepository && connection?.synced_revision && !operation.force
        ? connection.synced_revision
        : space.revision_id;
    const storage = new ContentStorage(job.db, spaceId);
    const baseTree = await treeOf(storage, await revisionOf(job.db, spaceId, base));
    const { pages, pagePaths: paths } = importedPages(repository, texts, {
      base: baseTree,
      paths: sameRepository ? await pagePaths(job.db, spaceId) : new Map(),
      projectDirectory: operation.project_directory,
      newId: () => job.ids.next(),
    });
    // Read before the transaction: storing and merging then find every analysis kept.
    await contentEngine().analyzeAll(pages.map((page) => page.markdown));
    const known = new Set(
      [...(await visibleFilesById(job.db, { spaceId, changeRequestId: null })).values()].map(
        (file) => `${file.name}\n${file.sha256}`,
      ),
    );
    const files: { id: string; name: string; contentType: string; bytes: Buffer }[] = [];
    const assets = repositoryPath(repository, operation.project_directory, ASSETS);
    for (const [path, { bytes }] of tree.files) {
      const name = path.slice(assets.length);
      if (!path.startsWith(assets) || !name || known.has(`${name}\n${sha256Of(bytes)}`)) continue;
      files.push({ id: job.ids.next(), name, contentType: "application/octet-stream", bytes });
    }

    await setStage(job.db, operation.id, "finalize", job.clock.now());
    const commit = tree.commit;
    return async (tx: Transaction) => {
      const imported = await deps.importContent(
        tx,
        { clock: job.clock, ids: job.ids },
        {
          spaceId,
          userId: operation.requested_by,
          subject: `Import ${commit.slice(0, 7)} from ${operation.ref.replace(/^refs\/heads\//, "")}`,
          base,
          pages,
          files,
          merge: !operation.standalone,
        },
      );
      if (!operation.standalone)
        await recordSync(
          tx,
          operation,
          {
            commit,
            revision: imported.merged ? imported.revision : null,
            pages: {
              paths,
              blobs: blobsOf(paths, (path) => {
                const full = repositoryPath(repository, operation.project_directory, path);
                const oid = tree.files.get(full)?.oid;
                return oid === undefined ? undefined : { oid, path: full };
              }),
              redirects: redirectedPages(repository.redirects, paths),
            },
            ...moved(tree.url),
          },
          job.clock.now(),
        );
      return {
        state: "success",
        commit,
        revision: imported.revision,
        ...(!imported.merged && { changeRequestId: imported.changeRequestId }),
      } satisfies OperationOutcome;
    };
  }

  /** The space's main content committed on the branch and pushed, when the branch holds nothing newer. */
  async function runExport(operation: OperationRow, job: JobContext, deadline: number) {
    const spaceId = operation.space_id;
    const moved = movedFrom(operation);
    const tree = await fetchTree(operation, deadline);
    const connection = await connectionOf(job.db, spaceId);
    const sameRepository = connection?.url === operation.url && connection.ref === operation.ref;
    if (
      sameRepository &&
      connection?.synced_commit &&
      tree.commit !== connection.synced_commit &&
      !operation.force
    )
      throw new OperationFailed(
        "The branch has commits the space does not have yet: import them first (or export with force).",
      );

    await setStage(job.db, operation.id, "config_check", job.clock.now());
    const texts = textsOf(tree);
    const repository = await readRepositoryConfig({
      files: texts,
      projectDirectory: operation.project_directory,
    });

    await setStage(job.db, operation.id, "content_process", job.clock.now());
    const space = await spaceOf(job, spaceId);
    const storage = new ContentStorage(job.db, spaceId);
    const pageTree = await treeOf(storage, await revisionOf(job.db, spaceId, space.revision_id));
    const hashes = [...pageTree.entries()].flatMap((entry) =>
      entry.document === null ? [] : [entry.document],
    );
    const bodies = await storage.documents(hashes);
    const analyses = await contentEngine().analyzeAll([...bodies.values()], { refusedAsEmpty: true });
    const frontMatters = new Map([...bodies.keys()].map((hash, i) => [hash, analyses[i]?.frontMatter]));
    const written = await writeRepositoryPlaced({
      pages: repositoryPages(pageTree, {
        bodies,
        frontMatters,
        paths: sameRepository ? await pagePaths(job.db, spaceId) : new Map(),
      }),
      config: repository.config,
      redirects: repository.redirects,
      previous: texts,
      projectDirectory: operation.project_directory,
    });
    const changes = new Map<string, Buffer | null>();
    for (const [path, text] of Object.entries(written.files))
      if (texts[path] !== text) changes.set(path, Buffer.from(text));
    for (const path of Object.keys(texts)) if (written.files[path] === undefined) changes.set(path, null);
    const assets = repositoryPath(repository, operation.project_directory, ASSETS);
    for (const file of (await visibleFilesById(job.db, { spaceId, changeRequestId: null })).values()) {
      const path = `${assets}${file.name}`;
      if (tree.files.has(path)) continue;
      const bytes = await deps.blobs.get(file.sha256);
      if (bytes) changes.set(path, Buffer.from(bytes));
    }

    await setStage(job.db, operation.id, "finalize", job.clock.now());
    const author = await job.db
      .selectFrom("users")
      .select(["display_name", "email"])
      .where("id", "=", operation.requested_by)
      .executeTakeFirst();
    const pushed = await git.commit(
      spaceId,
      remoteOf(operation, { secretKey, spaceId }),
      {
        parent: tree.commit,
        changes,
        message: operation.commit_message ?? "Update from Quire",
        author: { name: author?.display_name || "Quire", email: author?.email ?? "quire@localhost" },
        force: operation.force === 1,
      },
      { ...limits, timeoutMs: remaining(deadline) },
    );
    const paths = new Map(Object.entries(written.paths));
    return async (tx: Transaction) => {
      if (!operation.standalone)
        await recordSync(
          tx,
          operation,
          {
            commit: pushed.commit,
            revision: space.revision_id,
            pages: {
              paths,
              blobs: blobsOf(paths, (path) => {
                const full = repositoryPath(repository, operation.project_directory, path);
                const bytes = changes.get(full);
                const oid = bytes ? blobOid(bytes, pushed.commit) : tree.files.get(full)?.oid;
                return oid === undefined ? undefined : { oid, path: full };
              }),
              redirects: redirectedPages(repository.redirects, paths),
            },
            ...moved(pushed.url ?? tree.url),
          },
          job.clock.now(),
        );
      return {
        state: "success",
        commit: pushed.commit,
        revision: space.revision_id,
      } satisfies OperationOutcome;
    };
  }

  /** Runs one operation to its outcome: what to write with it, or why it failed. */
  async function run(
    operation: OperationRow,
    job: JobContext,
  ): Promise<(tx: Transaction) => Promise<OperationOutcome>> {
    const deadline = Date.now() + limits.timeoutMs;
    try {
      return operation.direction === "import"
        ? await runImport(operation, job, deadline)
        : await runExport(operation, job, deadline);
    } catch (err) {
      if (err instanceof GitError) {
        const state = err.kind === "timeout" ? "timeout" : "failure";
        return async (tx) => {
          if (err.kind === "auth") await markUnauthenticated(tx, operation.space_id, job.clock.now());
          return { state, error: err.message };
        };
      }
      // A repository the content engine refuses (422: a page past its limits) fails as a bad one does; a busy
      // engine (503) is retried with the job.
      if (err instanceof OperationFailed || (err instanceof ApiError && err.status < 500))
        return async () => ({ state: "failure", error: err.message });
      throw err;
    }
  }

  const poll = defineTask(pollGitBranches, {
    everyMs: POLL_CHECK_EVERY_MS,
    async run(_payload, job) {
      const now = job.clock.now();
      // In batches, so that no transaction holds many rows for long.
      let taken: number;
      do {
        taken = await job.db.transaction().execute(async (tx) => {
          const due = await takeConnectionsToPoll(tx, {
            before: timestamp(now, -deps.pollMs),
            now: timestamp(now),
            limit: POLL_BATCH,
          });
          for (const connection of due)
            if (!(await hasQueuedImport(tx, connection.space_id)))
              await queueFromConnection(tx, job, connection, {
                direction: "import",
                requestedBy: connection.synced_by,
              });
          return due.length;
        });
      } while (taken === POLL_BATCH);
    },
  });

  return [
    ...(deps.pollMs > 0 ? [poll] : []),
    defineTask(runGitSync, {
      async run({ spaceId }, job) {
        for (;;) {
          const operation = await job.db
            .transaction()
            .execute((tx) =>
              claimNextOperation(tx, spaceId, { now: job.clock.now(), leaseMs: job.leaseMs, ids: job.ids }),
            );
          if (!operation) return;
          // Its runner goes on to the operations after it; should it have died, its lease ends and a
          // retry of this job takes the operation again.
          if (operation === "busy")
            throw new Error(`Another runner is running a Git Sync operation of space ${spaceId}.`);
          let write: (tx: Transaction) => Promise<OperationOutcome>;
          try {
            write = await run(operation, job);
          } catch (err) {
            // Queued again for the job's retry: its lease would keep every runner off it till it ends.
            await releaseOperation(job.db, operation);
            throw err;
          }
          const end = (outcome: (tx: Transaction) => Promise<OperationOutcome>) =>
            job.db.transaction().execute(async (tx) => {
              // Another runner took the operation over (this one outlived its lease): its writes roll back.
              if (
                !(await endOperation(tx, operation, await outcome(tx), {
                  now: job.clock.now(),
                  ids: job.ids,
                }))
              )
                throw new Error(`Git Sync operation ${operation.id} was taken over by another runner`);
            });
          try {
            await end(write);
          } catch (err) {
            // Refused as a request would be (the space was deleted meanwhile): nothing written but why.
            if (!(err instanceof ApiError) || err.status >= 500) throw err;
            await end(async () => ({ state: "failure", error: err.message }));
          }
          job.logger.info(
            { spaceId, operation: operation.id, direction: operation.direction },
            "Git Sync operation ended",
          );
        }
      },
    }),
  ];
}

/** Each page's file as the repository has it, by page, from its path (those it has no file for left out). */
function blobsOf(
  paths: ReadonlyMap<string, string>,
  blobOf: (path: string) => { oid: string; path: string } | undefined,
): Map<string, { oid: string; path: string }> {
  return new Map(
    [...paths].flatMap(([pageId, path]) => {
      const blob = blobOf(path);
      return blob ? [[pageId, blob] as const] : [];
    }),
  );
}
