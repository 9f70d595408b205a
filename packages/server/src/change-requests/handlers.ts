import type { Schema } from "@quire/api-types";
import type { AccessMap, AreaHandlers } from "../area.js";
import { changeRequestContributors } from "../commands/contributors.js";
import { mergeChangeRequest, updateChangeRequestFromMain } from "../commands/merge.js";
import { changeRequestChanges, DEFAULT_CHANGES } from "../commands/semantic-changes.js";
import { badRequest } from "../http/errors.js";
import { presentPage } from "../http/paging.js";
import { created, ok, withEntityTag } from "../http/results.js";
import { onOrganization } from "../organizations/index.js";
import type { Services } from "../services.js";
import { contentReads } from "../space-content/index.js";
import { assertSpaceNotDeleted, onSpace } from "../spaces/index.js";
import { type MemberChangeRequest, onChangeRequest } from "./access.js";
import {
  type ContentChange,
  editChangeRequestContent,
  prepareContentEdit,
  prepareMerge,
  revisionBodies,
} from "./edits.js";
import { canEditChangeRequests, canMergeChangeRequests } from "./policy.js";
import { presentChangeRequest } from "./presenter.js";
import {
  type ChangeRequestFilter,
  insertChangeRequest,
  listOrganizationChangeRequestsByCreation,
  listOrganizationChangeRequestsByUpdate,
  listSpaceChangeRequestsByCreation,
  listSpaceChangeRequestsByUpdate,
  lockSpace,
} from "./store.js";
import { changeChangeRequest } from "./update.js";

const reads = onChangeRequest("read this change request");
const edits = (action: string) => onChangeRequest(action, ({ role }) => canEditChangeRequests(role));

export const changeRequestAccess = {
  listChangeRequestsForSpace: onSpace("list its change requests"),
  listChangeRequestsForOrganization: onOrganization("list its change requests"),
  getContributorsByChangeRequestId: onChangeRequest("read this change request"),
  createChangeRequest: onSpace("create change requests in this space", ({ role }) =>
    canEditChangeRequests(role),
  ),
  getChangeRequestById: reads,
  updateChangeRequestById: edits("change change requests in this space"),
  updateChangeRequestContent: edits("edit the content of change requests in this space"),
  updatePageInChangeRequestById: edits("edit the content of change requests in this space"),
  mergeChangeRequest: onChangeRequest("merge change requests in this space", ({ role }) =>
    canMergeChangeRequests(role),
  ),
  updateChangeRequest: edits("update change requests in this space"),
  getRevisionOfChangeRequestById: reads,
  listPagesInChangeRequest: reads,
  getPageInChangeRequestById: reads,
  listChangeRequestPageMetaLinks: reads,
  listFilesInChangeRequestById: reads,
  getFileInChangeRequestById: reads,
  getPageInChangeRequestByPath: reads,
  getChangeRequestChanges: reads,
} satisfies AccessMap;

/** How the change request's content is seen: from its space, at its number in the app. */
const viewOf = ({ space, changeRequest }: MemberChangeRequest) => ({
  spaceId: space.id,
  appPath: `spaces/${space.id}/change-requests/${changeRequest.number}`,
});

/** The change request's file scope: the files added to it over those of main. */
const scopeOf = ({ space, changeRequest }: MemberChangeRequest) => ({
  spaceId: space.id,
  changeRequestId: changeRequest.id,
});

/** The filters both lists of change requests take, from their query: these statuses, and each optional filter. */
function listFilter(
  statuses: readonly Schema<"ChangeRequestStatus">[],
  query: { creator?: string; contributor?: string; requestedReviewer?: string; site?: string },
): ChangeRequestFilter {
  const listed = (status: Schema<"ChangeRequestStatus">) => (statuses.includes(status) ? 1 : 0);
  return {
    draft: listed("draft"),
    open: listed("open"),
    archived: listed("archived"),
    merged: listed("merged"),
    creator: query.creator ?? null,
    contributor: query.contributor ?? null,
    requestedReviewer: query.requestedReviewer ?? null,
    site: query.site ?? null,
  };
}

export function changeRequestHandlers(services: Services): AreaHandlers<typeof changeRequestAccess> {
  const { db, urls, ids, now, transaction } = services;
  const content = contentReads(services);

  /** Merges the change request into main, or main into it, its bodies read before the transaction. */
  const pullOrMerge = async (
    { space, changeRequest }: MemberChangeRequest,
    command: typeof mergeChangeRequest,
    userId: string,
  ) => {
    await prepareMerge(db, space, changeRequest);
    return transaction((tx) =>
      command(tx, {
        spaceId: space.id,
        changeRequestId: changeRequest.id,
        now: now(),
        ids,
        by: userId,
        byMember: true,
      }),
    );
  };

  /**
   * Applies `changes` to the change request's content, all or none. The content engine reads them
   * before the transaction (its workers never hold the database): the JSON documents of updates
   * convert against the pages' bodies in the change request.
   */
  const editContent = async (
    member: MemberChangeRequest,
    userId: string,
    changes: readonly ContentChange[],
  ) => {
    const bodies = revisionBodies(db, member.space.id, member.changeRequest.revision_id);
    const edit = await prepareContentEdit(changes, [], bodies);
    return transaction((tx) =>
      editChangeRequestContent(
        tx,
        { ids, now: now() },
        { spaceId: member.space.id, changeRequestId: member.changeRequest.id, userId, edit },
      ),
    );
  };

  return {
    async listChangeRequestsForOrganization({ query, caller }, { organization }) {
      const filter = {
        ...listFilter(query.status ?? ["open"], query),
        organizationId: organization.id,
        userId: caller.user.id,
        space: query.space ?? null,
      };
      const list =
        query.orderBy === "createdAt"
          ? listOrganizationChangeRequestsByCreation
          : listOrganizationChangeRequestsByUpdate;
      const page = await list(db, filter, query);
      return ok(presentPage(page, (row) => presentChangeRequest(row, row.space_revision, urls)));
    },

    async getContributorsByChangeRequestId(_input, { changeRequest }) {
      return ok(await changeRequestContributors(db, urls, changeRequest));
    },

    // `topic` is accepted and ignored: Quire has no site topics.
    async listChangeRequestsForSpace({ query }, { space }) {
      const filter = { ...listFilter([query.status ?? "open"], query), spaceId: space.id };
      const list =
        query.orderBy === "createdAt" ? listSpaceChangeRequestsByCreation : listSpaceChangeRequestsByUpdate;
      const page = await list(db, filter, query);
      return ok(presentPage(page, (row) => presentChangeRequest(row, space.revision_id, urls)));
    },

    async createChangeRequest({ body = {}, caller }, member) {
      if (body.template !== undefined)
        throw badRequest("template: Quire has no change request templates; leave it out.");
      const { space, changeRequest } = await transaction(async (tx) => {
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

    async getChangeRequestById(_input, { space, changeRequest }) {
      return ok(presentChangeRequest(changeRequest, space.revision_id, urls));
    },

    async updateChangeRequestById({ body, caller }, member) {
      const { space, changeRequest } = await transaction((tx) =>
        changeChangeRequest(tx, services, member, body, caller.user.id),
      );
      return ok(presentChangeRequest(changeRequest, space.revision_id, urls));
    },

    async updateChangeRequestContent({ body, query, caller }, member) {
      if (query.compat === false)
        throw badRequest(
          "compat=false (the change request with the list of the pages changed) is not supported: " +
            "send compat=true or leave it out to get the updated change request.",
        );
      const { space, changeRequest } = await editContent(member, caller.user.id, body.changes);
      return ok(presentChangeRequest(changeRequest, space.revision_id, urls));
    },

    async updatePageInChangeRequestById({ path, body, caller }, member) {
      await content.assertPage(member.space.id, member.changeRequest.revision_id, path.pageId);
      const change = { operation: "update_page" as const, page: path.pageId, ...body };
      const { changeRequest } = await editContent(member, caller.user.id, [change]);
      return withEntityTag(await content.page(viewOf(member), changeRequest.revision_id, path.pageId, {}));
    },

    async mergeChangeRequest({ caller }, member) {
      const { revision } = await pullOrMerge(member, mergeChangeRequest, caller.user.id);
      return ok({ revision, result: "merge" as const });
    },

    async updateChangeRequest({ caller }, member) {
      const { revision } = await pullOrMerge(member, updateChangeRequestFromMain, caller.user.id);
      return ok({ revision, result: "update" as const });
    },

    async getRevisionOfChangeRequestById(_input, member) {
      return content.revision(viewOf(member), member.changeRequest.revision_id, scopeOf(member));
    },

    async listPagesInChangeRequest(_input, member) {
      return content.pages(viewOf(member), member.changeRequest.revision_id);
    },

    async listChangeRequestPageMetaLinks({ path }, member) {
      return content.metaLinks(member.space.id, member.changeRequest.revision_id, path.pageId);
    },

    async getPageInChangeRequestById({ path, query }, member) {
      return content.page(viewOf(member), member.changeRequest.revision_id, path.pageId, query);
    },

    async listFilesInChangeRequestById({ query }, member) {
      return content.files(scopeOf(member), query);
    },

    async getFileInChangeRequestById({ path }, member) {
      return content.file(scopeOf(member), path.fileId);
    },

    async getChangeRequestChanges({ query }, member) {
      return ok(await changeRequestChanges(services, member.changeRequest, query.limit ?? DEFAULT_CHANGES));
    },

    async getPageInChangeRequestByPath({ path, query }, member) {
      return content.pageAtPath(viewOf(member), member.changeRequest.revision_id, path.pagePath, query);
    },
  };
}
