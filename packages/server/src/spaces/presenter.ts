import type { Schema } from "@quire/api-types";
import { roleOnRow } from "../access.js";
import { presentedDefaultLevel } from "../content/tree.js";
import { fromJson } from "../db/codecs.js";
import type { Role, SpaceTable } from "../db/schema.js";
import type { OrganizationRole } from "../policy.js";
import type { Urls } from "../urls.js";
import { spacePermissions } from "./policy.js";

export function presentSpace(row: SpaceTable, role: Role | undefined, urls: Urls): Schema<"Space"> {
  return {
    object: "space",
    id: row.id,
    title: row.title,
    emoji: row.emoji,
    visibility: row.visibility as Schema<"ContentVisibility">,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.deleted_at !== null && { deletedAt: row.deleted_at }),
    editMode: row.edit_mode,
    urls: { location: urls.api(`spaces/${row.id}`), app: urls.app(`spaces/${row.id}`) },
    organization: row.organization_id,
    ...(row.parent_id !== null && { parent: row.parent_id }),
    revision: row.revision_id,
    defaultLevel: presentedDefaultLevel(row),
    comments: row.open_comments,
    changeRequests: row.change_requests,
    changeRequestsOpen: row.open_change_requests,
    changeRequestsDraft: row.draft_change_requests,
    permissions: spacePermissions(role),
    ...(row.git_sync !== null && { gitSync: fromJson(row.git_sync) }),
    mergeRules: row.merge_rules === null ? { type: "inherit" } : fromJson(row.merge_rules),
    ...(row.language !== null && { language: row.language as Schema<"SpaceLanguage"> }),
  };
}

/** Presents rows of one organization to a caller with `organizationRole` there. */
export const presentSpaceFor =
  (organizationRole: OrganizationRole, urls: Urls) =>
  (row: SpaceTable & { caller_grant?: number | string | null }): Schema<"Space"> =>
    presentSpace(row, roleOnRow(organizationRole, row), urls);
