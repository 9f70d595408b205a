import { mergeChangeRequest, updateChangeRequestFromMain } from "../commands/merge.js";
import { conflict } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, ok } from "../http/results.js";
import { authorize } from "../policy.js";
import type { AreaHandlers, Services } from "../services.js";
import { contentReads } from "../space-content/index.js";
import { assertSpaceNotDeleted, spaceForCaller } from "../spaces/index.js";
import { editChangeRequestContent } from "./edits.js";
import { canEditChangeRequests, canMergeChangeRequests } from "./policy.js";
import { presentChangeRequest } from "./presenter.js";
import {
  changeRequestOf,
  insertChangeRequest,
  listChangeRequests,
  lockSpace,
  updateChangeRequest,
} from "./store.js";

export function changeRequestHandlers(
  services: Services,
): AreaHandlers<
  | "createChangeRequest"
  | "listChangeRequestsForSpace"
  | "getChangeRequestById"
  | "updateChangeRequestById"
  | "updateChangeRequestContent"
  | "mergeChangeRequest"
  | "updateChangeRequest"
  | "getRevisionOfChangeRequestById"
  | "listPagesInChangeRequest"
  | "getPageInChangeRequestById"
  | "listFilesInChangeRequestById"
  | "getFileInChangeRequestById"
> {
  const { db, urls, clock, ids, now } = services;
  const reads = contentReads(services);
  const memberSpace = (spaceId: string, userId: string) => spaceForCaller(db, spaceId, userId, clock.now());

  /** The change request, the space and the caller's role there: 404 when the caller cannot see them. */
  const memberChangeRequest = async (path: { spaceId: string; changeRequestId: string }, userId: string) => {
    const member = await memberSpace(path.spaceId, userId);
    const changeRequest = await changeRequestOf(db, member.space.id, path.changeRequestId);
    const view = {
      spaceId: member.space.id,
      appPath: `spaces/${member.space.id}/change-requests/${changeRequest.number}`,
    };
    return { ...member, changeRequest, view };
  };

  /** Merges the change request into main, or main into it, once the caller's role allows it. */
  const pullOrMerge = async (
    path: { spaceId: string; changeRequestId: string },
    userId: string,
    action: "merge" | "update",
    command: typeof mergeChangeRequest,
  ) => {
    const member = await memberChangeRequest(path, userId);
    const allowed = action === "merge" ? canMergeChangeRequests : canEditChangeRequests;
    authorize(allowed(member.role), `${action} change requests in this space`);
    return db
      .transaction()
      .execute((tx) =>
        command(tx, { spaceId: member.space.id, changeRequestId: member.changeRequest.id, now: now(), ids }),
      );
  };

  return {
    async listChangeRequestsForSpace({ path, query, caller }) {
      const { space } = await memberSpace(path.spaceId, caller.user.id);
      const page = await listChangeRequests(
        db,
        { spaceId: space.id, status: query.status ?? "open", contributor: query.contributor ?? null },
        query,
      );
      return ok(presentPage(page, (row) => presentChangeRequest(row, space.revision_id, urls)));
    },

    async createChangeRequest({ path, body, caller }) {
      const member = await memberSpace(path.spaceId, caller.user.id);
      authorize(canEditChangeRequests(member.role), "create change requests in this space");
      const { space, changeRequest } = await db.transaction().execute(async (tx) => {
        const space = await lockSpace(tx, member.space.id);
        assertSpaceNotDeleted(space);
        const changeRequest = await insertChangeRequest(tx, services, {
          space,
          subject: body.subject ?? "",
          userId: caller.user.id,
        });
        return { space, changeRequest };
      });
      return created(presentChangeRequest(changeRequest, space.revision_id, urls));
    },

    async getChangeRequestById({ path, caller }) {
      const { space, changeRequest } = await memberChangeRequest(path, caller.user.id);
      return ok(presentChangeRequest(changeRequest, space.revision_id, urls));
    },

    async updateChangeRequestById({ path, body, caller }) {
      const member = await memberChangeRequest(path, caller.user.id);
      authorize(canEditChangeRequests(member.role), "change change requests in this space");
      const { space, changeRequest } = await db.transaction().execute(async (tx) => {
        const space = await lockSpace(tx, member.space.id);
        const current = await changeRequestOf(tx, space.id, member.changeRequest.id);
        const changes = {
          ...(body.subject !== undefined && body.subject !== current.subject && { subject: body.subject }),
          ...(body.status !== undefined && body.status !== current.status && { status: body.status }),
        };
        if (body.subject === undefined && body.status === undefined) return { space, changeRequest: current };
        assertSpaceNotDeleted(space);
        if (current.status === "merged")
          throw conflict("A merged change request cannot change.", "change_request_closed");
        if (Object.keys(changes).length === 0) return { space, changeRequest: current };
        return { space, changeRequest: await updateChangeRequest(tx, current, changes, now()) };
      });
      return ok(presentChangeRequest(changeRequest, space.revision_id, urls));
    },

    async updateChangeRequestContent({ path, body, caller }) {
      const member = await memberChangeRequest(path, caller.user.id);
      authorize(canEditChangeRequests(member.role), "edit the content of change requests in this space");
      const { space, changeRequest } = await db.transaction().execute((tx) =>
        editChangeRequestContent(
          tx,
          { ids, now: now() },
          {
            spaceId: member.space.id,
            changeRequestId: member.changeRequest.id,
            userId: caller.user.id,
            changes: body.changes,
          },
        ),
      );
      return ok(presentChangeRequest(changeRequest, space.revision_id, urls));
    },

    async mergeChangeRequest({ path, caller }) {
      const { revision } = await pullOrMerge(path, caller.user.id, "merge", mergeChangeRequest);
      return ok({ revision, result: "merge" as const });
    },

    async updateChangeRequest({ path, caller }) {
      const { revision } = await pullOrMerge(path, caller.user.id, "update", updateChangeRequestFromMain);
      return ok({ revision, result: "update" as const });
    },

    async getRevisionOfChangeRequestById({ path, caller }) {
      const { changeRequest, view } = await memberChangeRequest(path, caller.user.id);
      return reads.revision(view, changeRequest.revision_id, {
        spaceId: view.spaceId,
        changeRequestId: changeRequest.id,
      });
    },

    async listPagesInChangeRequest({ path, caller }) {
      const { changeRequest, view } = await memberChangeRequest(path, caller.user.id);
      return reads.pages(view, changeRequest.revision_id);
    },

    async getPageInChangeRequestById({ path, query, caller }) {
      const { changeRequest, view } = await memberChangeRequest(path, caller.user.id);
      return reads.page(view, changeRequest.revision_id, path.pageId, query);
    },

    async listFilesInChangeRequestById({ path, query, caller }) {
      const { changeRequest, view } = await memberChangeRequest(path, caller.user.id);
      return reads.files({ spaceId: view.spaceId, changeRequestId: changeRequest.id }, query);
    },

    async getFileInChangeRequestById({ path, caller }) {
      const { changeRequest, view } = await memberChangeRequest(path, caller.user.id);
      return reads.file({ spaceId: view.spaceId, changeRequestId: changeRequest.id }, path.fileId);
    },
  };
}
