import {
  baseRevisionOf,
  type ChangeRequestRow,
  type ChangeRequestTable,
  changeRequestEventData,
  changeRequestOf,
  lockSpace,
  updateChangeRequest,
} from "../change-requests/index.js";
import { changesBetween, type MergeConflict, mergeContents } from "../content/merge.js";
import { changedPages } from "../content/pages.js";
import { insertRevision, revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import type { RevisionTable } from "../content/tables.js";
import { updateTrie } from "../content/trie.js";
import type { IdGenerator } from "../context.js";
import type { Transaction } from "../db/database.js";
import type { SpaceTable } from "../db/schema.js";
import { recordEvent } from "../events/record.js";
import { queueMergeExport } from "../git-sync/index.js";
import { ApiError, conflict } from "../http/errors.js";
import { organizationMergeRules } from "../organizations/index.js";
import { assertMergeRulesMet, effectiveMergeRules, latestReviews } from "../reviews/index.js";
import { indexMainContent } from "../search/index.js";
import { assertSpaceNotDeleted, updateSpace } from "../spaces/index.js";

/**
 * A merge or an update that conflicts: nothing was written. `details` is what the error body
 * carries beside `code`, `type` and `message` (`error.conflicts` in the contract); the message names
 * every conflicting page too.
 */
export class MergeConflictError extends ApiError {
  declare readonly details: { conflicts: MergeConflict[] };

  constructor(status: 409 | 412, conflicts: MergeConflict[]) {
    const pages = conflicts.map((c) => `"${c.title}" (${c.page}): ${c.field}`).join("; ");
    super(
      status,
      `The change request and the main content changed the same content: ${pages}. ` +
        "Reconcile the pages in the change request with update_page, then try again.",
      { details: { conflicts }, type: "merge_conflict" },
    );
    this.name = "MergeConflictError";
  }
}

interface MergeArguments {
  spaceId: string;
  changeRequestId: string;
  now: string;
  ids: IdGenerator;
  /** Who merges or updates: the member, or the user an import runs for. */
  by: string;
  /** A member's merge (not an import's): a space synced with Git exports it. */
  byMember: boolean;
}

interface Locked {
  space: SpaceTable;
  changeRequest: ChangeRequestRow;
}

/** The space (locked) and the change request as they are now, which must both still accept writes. */
async function lockForMerge(tx: Transaction, { spaceId, changeRequestId }: MergeArguments): Promise<Locked> {
  const space = await lockSpace(tx, spaceId);
  const changeRequest = await changeRequestOf(tx, spaceId, changeRequestId);
  assertSpaceNotDeleted(space);
  if (changeRequest.status === "merged")
    throw conflict("The change request is merged already.", "change_request_closed");
  if (changeRequest.status === "archived")
    throw conflict(
      "The change request is archived; reopen it (status draft or open) first.",
      "change_request_closed",
    );
  return { space, changeRequest };
}

/**
 * The root of the three-way merge of the change request's content (`ours`) and the main content
 * (`theirs`) from their base, built from `onto` (one of the two), or the conflicts.
 */
async function threeWay(
  storage: ContentStorage,
  revisions: { base: RevisionTable; ours: RevisionTable; theirs: RevisionTable },
  onto: "ours" | "theirs",
): Promise<{ root: string | null } | { conflicts: MergeConflict[] }> {
  const [base, ours, theirs] = await Promise.all([
    treeOf(storage, revisions.base),
    treeOf(storage, revisions.ours),
    treeOf(storage, revisions.theirs),
  ]);
  const outcome = await mergeContents(base, ours, theirs, storage);
  if (outcome.conflicts) return { conflicts: outcome.conflicts };
  const from = onto === "ours" ? ours : theirs;
  return { root: await updateTrie(storage, revisions[onto].root, changesBetween(from, outcome.pages)) };
}

async function revisionsOf(
  tx: Transaction,
  spaceId: string,
  changeRequest: ChangeRequestTable,
  space: SpaceTable,
) {
  const [base, ours, theirs] = await Promise.all([
    revisionOf(tx, spaceId, baseRevisionOf(changeRequest)),
    revisionOf(tx, spaceId, changeRequest.revision_id),
    revisionOf(tx, spaceId, space.revision_id),
  ]);
  return { base, ours, theirs };
}

/**
 * Merges a change request into the main content of its space: a fast-forward to the change
 * request's content when main did not move since its base, a three-way merge otherwise (412 on
 * conflicts, nothing written). Either way a new `merge` revision becomes the space's, and the change
 * request is merged.
 */
export async function mergeChangeRequest(
  tx: Transaction,
  args: MergeArguments,
): Promise<{ revision: string }> {
  const { space, changeRequest } = await lockForMerge(tx, args);
  // A member's merge meets the space's rules; an import's (Git Sync) brings in what the repository has.
  if (args.byMember)
    assertMergeRulesMet(
      effectiveMergeRules(space.merge_rules, await organizationMergeRules(tx, space.organization_id)),
      {
        changeRequest: {
          createdBy: changeRequest.created_by,
          subject: changeRequest.subject,
          revision: changeRequest.revision_id,
          base: baseRevisionOf(changeRequest),
        },
        mainRevision: space.revision_id,
        mergedBy: args.by,
        reviews: await latestReviews(tx, changeRequest.id),
      },
    );
  const storage = new ContentStorage(tx, space.id);
  const revisions = await revisionsOf(tx, space.id, changeRequest, space);
  let root = revisions.ours.root;
  if (revisions.theirs.id !== revisions.base.id) {
    const merged = await threeWay(storage, revisions, "theirs");
    if ("conflicts" in merged) throw new MergeConflictError(412, merged.conflicts);
    root = merged.root;
  }
  const revision = await insertRevision(tx, storage, {
    id: args.ids.next(),
    space_id: space.id,
    parent_id: revisions.theirs.id,
    merge_parent_id: revisions.ours.id,
    type: "merge",
    root,
    author_id: args.by,
    created_at: args.now,
  });
  await updateSpace(tx, space, { revision_id: revision.id }, args.now);
  await indexMainContent(tx, storage, revision);
  const merged = await updateChangeRequest(
    tx,
    changeRequest,
    { status: "merged", revision_merged_id: revision.id },
    args.now,
  );
  const context = { clock: { now: () => new Date(args.now) }, ids: args.ids };
  if (args.byMember)
    await queueMergeExport(tx, context, {
      spaceId: space.id,
      userId: args.by,
      subject: changeRequest.subject,
      number: changeRequest.number,
    });
  const pages = changedPages(await treeOf(storage, revisions.theirs), await treeOf(storage, revision));
  const event = { organizationId: space.organization_id, actorId: args.by, spaceId: space.id };
  await recordEvent(tx, context, {
    ...event,
    type: "change_request_merged",
    data: { ...changeRequestEventData(merged), revision: revision.id },
  });
  await recordEvent(tx, context, {
    ...event,
    type: "space_content_updated",
    data: {
      space: space.id,
      revision: revision.id,
      previousRevision: revisions.theirs.id,
      changeRequest: changeRequest.id,
      pages,
    },
  });
  return { revision: revision.id };
}

/**
 * Brings the main content into a change request by the same three-way merge (409 on conflicts,
 * nothing written), as a new `update` revision of the change request whose base becomes the main
 * content's revision. Nothing to do, and no new revision, when main did not move.
 */
export async function updateChangeRequestFromMain(
  tx: Transaction,
  args: MergeArguments,
): Promise<{ revision: string }> {
  const { space, changeRequest } = await lockForMerge(tx, args);
  const revisions = await revisionsOf(tx, space.id, changeRequest, space);
  if (revisions.theirs.id === revisions.base.id) return { revision: changeRequest.revision_id };
  const storage = new ContentStorage(tx, space.id);
  const merged = await threeWay(storage, revisions, "ours");
  if ("conflicts" in merged) throw new MergeConflictError(409, merged.conflicts);
  const revision = await insertRevision(tx, storage, {
    id: args.ids.next(),
    space_id: space.id,
    parent_id: revisions.ours.id,
    merge_parent_id: revisions.theirs.id,
    type: "update",
    root: merged.root,
    author_id: args.by,
    created_at: args.now,
  });
  const updated = await updateChangeRequest(
    tx,
    changeRequest,
    { revision_id: revision.id, revision_merged_ancestor_id: revisions.theirs.id },
    args.now,
  );
  await recordEvent(
    tx,
    { clock: { now: () => new Date(args.now) }, ids: args.ids },
    {
      organizationId: space.organization_id,
      actorId: args.by,
      spaceId: space.id,
      type: "change_request_updated_from_main",
      data: { ...changeRequestEventData(updated), revision: revision.id },
    },
  );
  return { revision: revision.id };
}
