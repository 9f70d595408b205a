import type { BlobStore } from "../blobs/blobs.js";
import type { Db } from "../db/database.js";
import { keysetList } from "../http/paging.js";
import { inspectFile } from "./inspect.js";
import type { FileTable } from "./tables.js";

export interface NewFile {
  spaceId: string;
  /** The change request the file is added to; null adds it to main directly (see `visibleFiles`). */
  changeRequestId: string | null;
  name: string;
  /** The declared media type; "application/octet-stream" (or "") lets the bytes decide. */
  contentType: string;
  bytes: Uint8Array;
  now: string;
  /** From `services.ids.next()`. */
  id: string;
}

/**
 * Adds a file to a change request (or to main), inside the caller's transaction `tx`: the bytes go to
 * `blobs` (content-addressed by SHA-256, so the same bytes are stored once), the row to `files`.
 * Images are recognized from their bytes, which give `contentType` and the dimensions; a declared type
 * the bytes contradict throws a 400 `ApiError`. Answers the stored row; `fileMarkdownUrl(row.id)` (src/content/engine/references.ts) is how a
 * page's markdown refers to it. The caller checks the change request is open and the caller may edit it.
 * A rolled-back transaction leaves the blob unreferenced, which is harmless.
 */
export async function addFile(tx: Db, blobs: BlobStore, file: NewFile): Promise<FileTable> {
  const inspected = inspectFile(file.bytes, file.contentType);
  const sha256 = await blobs.put(file.bytes);
  const row: FileTable = {
    id: file.id,
    space_id: file.spaceId,
    change_request_id: file.changeRequestId,
    name: file.name,
    content_type: inspected.contentType,
    size: file.bytes.byteLength,
    sha256,
    width: inspected.width,
    height: inspected.height,
    created_at: file.now,
  };
  await tx.insertInto("files").values(row).execute();
  return row;
}

/** Which content the files are seen from: main (`changeRequestId` null) or a change request. */
export interface FileScope {
  spaceId: string;
  changeRequestId: string | null;
}

/**
 * The files a scope shows: a change request shows main's files and its own; main shows the files
 * added to it directly and those of merged change requests. Files are only ever added, so a file of
 * an open change request is invisible to main and to other change requests until its merge. With
 * `at`, what the scope showed at that time: each file comes with a revision of its own (made in the
 * same transaction, at the same time), so a revision shows the files as of its `created_at`.
 */
function visibleFiles(db: Db, scope: { spaceId: string; changeRequestId: string }, at?: string) {
  return db
    .selectFrom("files")
    .selectAll()
    .where("space_id", "=", scope.spaceId)
    .where((eb) =>
      eb.or([
        eb("change_request_id", "is", null),
        eb("change_request_id", "=", scope.changeRequestId),
        eb(
          "change_request_id",
          "in",
          eb
            .selectFrom("change_requests")
            .innerJoin("revisions", "revisions.id", "change_requests.revision_merged_id")
            .select("change_requests.id")
            .where("change_requests.space_id", "=", scope.spaceId)
            .where("change_requests.status", "=", "merged")
            .$if(at !== undefined, (merged) => merged.where("revisions.created_at", "<=", at as string)),
        ),
      ]),
    )
    .$if(at !== undefined, (files) => files.where("created_at", "<=", at as string));
}

/** No change request has an empty id: main's scope matches only main's files. */
export const fileScopeArgs = (scope: FileScope) => ({
  spaceId: scope.spaceId,
  changeRequestId: scope.changeRequestId ?? "",
});

/** A page of the files a scope shows, in id order. */
export const listVisibleFiles = keysetList(
  (db, args: { spaceId: string; changeRequestId: string }) => visibleFiles(db, args),
  { id: "string" },
);

/** A page of the files a scope showed at `at` (when a revision was made), in id order. */
export const listFilesShownAt = keysetList(
  (db, args: { spaceId: string; changeRequestId: string; at: string }) => visibleFiles(db, args, args.at),
  { id: "string" },
);

/** One file the scope shows (with `at`, showed then), or undefined. */
export async function visibleFile(
  db: Db,
  scope: FileScope,
  fileId: string,
  at?: string,
): Promise<FileTable | undefined> {
  return visibleFiles(db, fileScopeArgs(scope), at).where("id", "=", fileId).executeTakeFirst();
}

/** The files a revision made at `at` shows, in id order (see `visibleFiles`). */
export async function revisionFiles(db: Db, scope: FileScope, at: string): Promise<FileTable[]> {
  return visibleFiles(db, fileScopeArgs(scope), at).orderBy("id").execute();
}

/** Every file the scope shows, by id: what links to files are checked against. */
export async function visibleFilesById(db: Db, scope: FileScope): Promise<Map<string, FileTable>> {
  const rows = await visibleFiles(db, fileScopeArgs(scope)).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** A file by id alone, for the download route (its signed URL names it). */
export async function fileById(db: Db, fileId: string): Promise<FileTable | undefined> {
  return db.selectFrom("files").selectAll().where("id", "=", fileId).executeTakeFirst();
}
