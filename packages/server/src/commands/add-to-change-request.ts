import type { BlobStore } from "../blobs/blobs.js";
import { editChangeRequestContent, noContentEdit, type PreparedEdit } from "../change-requests/index.js";
import type { IdGenerator } from "../context.js";
import type { Transaction } from "../db/database.js";
import { addFile, type FileTable, type NewFile } from "../files/index.js";

/**
 * Adds files, and the pages of a prepared edit, to a change request as one new revision (an upload,
 * an import), the files at the revision's time so that it lists them (see `revisionFiles`). 409 for a
 * change request that is merged or archived. The bytes may already be in `blobs`.
 */
export async function addToChangeRequest(
  tx: Transaction,
  { ids, now, blobs }: { ids: IdGenerator; now: string; blobs: BlobStore },
  args: {
    spaceId: string;
    changeRequestId: string;
    userId: string;
    files: readonly Omit<NewFile, "spaceId" | "changeRequestId" | "now">[];
    edit?: PreparedEdit;
  },
): Promise<{ revisionId: string; files: FileTable[] }> {
  const { changeRequest } = await editChangeRequestContent(
    tx,
    { ids, now },
    {
      spaceId: args.spaceId,
      changeRequestId: args.changeRequestId,
      userId: args.userId,
      edit: args.edit ?? noContentEdit,
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
