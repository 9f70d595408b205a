import type { BlobStore } from "../blobs/blobs.js";
import {
  canEditChangeRequests,
  changeRequestOf,
  editChangeRequestContent,
  type NewPage,
} from "../change-requests/index.js";
import type { IdGenerator } from "../context.js";
import type { Db, Transaction } from "../db/database.js";
import { addFile, type FileTable, type NewFile } from "../files/index.js";
import { authorize } from "../policy.js";
import { spaceForCaller } from "../spaces/index.js";

/**
 * The change request of `path` and its space, once the user may edit its content: 404 when they
 * cannot see it, 403 (naming `action`) when they may only read it.
 */
export async function changeRequestToEdit(
  db: Db,
  now: Date,
  path: { spaceId: string; changeRequestId: string },
  userId: string,
  action: string,
) {
  const member = await spaceForCaller(db, path.spaceId, userId, now);
  const changeRequest = await changeRequestOf(db, member.space.id, path.changeRequestId);
  authorize(canEditChangeRequests(member.role), action);
  return { space: member.space, changeRequest };
}

/**
 * Adds files, and pages, to a change request as one new revision (an upload, an import), the files
 * at the revision's time so that it lists them (see `revisionFiles`). 409 for a change request that
 * is merged or archived.; the bytes may already be in `blobs`.
 */
export async function addToChangeRequest(
  tx: Transaction,
  { ids, now, blobs }: { ids: IdGenerator; now: string; blobs: BlobStore },
  args: {
    spaceId: string;
    changeRequestId: string;
    userId: string;
    files: readonly Omit<NewFile, "spaceId" | "changeRequestId" | "now">[];
    pages?: readonly NewPage[];
  },
): Promise<{ revisionId: string; files: FileTable[] }> {
  const { changeRequest } = await editChangeRequestContent(
    tx,
    { ids, now },
    {
      spaceId: args.spaceId,
      changeRequestId: args.changeRequestId,
      userId: args.userId,
      changes: [],
      ...(args.pages && { pages: args.pages }),
    },
  );
  const files: FileTable[] = [];
  for (const file of args.files)
    files.push(
      await addFile(tx, blobs, {
        ...file,
        spaceId: args.spaceId,
        changeRequestId: args.changeRequestId,
        now,
      }),
    );
  return { revisionId: changeRequest.revision_id, files };
}
