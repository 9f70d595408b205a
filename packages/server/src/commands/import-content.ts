import type { BlobStore } from "../blobs/blobs.js";
import {
  insertChangeRequest,
  lockSpace,
  type ReplacingPage,
  replaceChangeRequestContent,
  updateChangeRequest,
} from "../change-requests/index.js";
import type { Clock, IdGenerator } from "../context.js";
import type { Transaction } from "../db/database.js";
import { addFile, type NewFile } from "../files/index.js";
import { assertSpaceNotDeleted } from "../spaces/index.js";
import { mergeChangeRequest } from "./merge.js";

export interface ImportedContent {
  spaceId: string;
  userId: string;
  subject: string;
  /** The revision the content was last in step with: the change request is made from it. */
  base: string;
  pages: readonly ReplacingPage[];
  files: readonly Omit<NewFile, "spaceId" | "changeRequestId" | "now">[];
  /**
   * Merge it when the main content is still `base` (nothing to merge but the import); otherwise, and
   * always when false, leave it open for review, so that no edit of either side is lost.
   */
  merge: boolean;
}

/**
 * Content from outside (a Git repository) made the space's, through a change request made from the
 * revision the space was last in step with: merged at once when main did not move since, else left
 * open, its conflicts shown by the merge as any change request's. In the caller's transaction.
 */
export async function importContent(
  tx: Transaction,
  context: { clock: Clock; ids: IdGenerator; blobs: BlobStore },
  imported: ImportedContent,
): Promise<{ changeRequestId: string; revision: string; merged: boolean }> {
  const now = context.clock.now().toISOString();
  const space = await lockSpace(tx, imported.spaceId);
  assertSpaceNotDeleted(space);
  const opened = await insertChangeRequest(tx, context, {
    space,
    subject: imported.subject,
    userId: imported.userId,
    from: imported.base,
  });
  const { changeRequest } = await replaceChangeRequestContent(
    tx,
    { ids: context.ids, now },
    { spaceId: space.id, changeRequestId: opened.id, userId: imported.userId, pages: imported.pages },
  );
  for (const file of imported.files)
    await addFile(tx, context.blobs, { ...file, spaceId: space.id, changeRequestId: opened.id, now });
  if (imported.merge && space.revision_id === imported.base) {
    const { revision } = await mergeChangeRequest(tx, {
      spaceId: space.id,
      changeRequestId: opened.id,
      now,
      ids: context.ids,
      by: imported.userId,
      byMember: false,
    });
    return { changeRequestId: opened.id, revision, merged: true };
  }
  await updateChangeRequest(tx, changeRequest, { status: "open" }, now);
  return { changeRequestId: opened.id, revision: changeRequest.revision_id, merged: false };
}
