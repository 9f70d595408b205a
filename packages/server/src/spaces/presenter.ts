import type { Schema } from "@quire/api-types";
import type { Db } from "../db/database.js";
import type { Role, SpaceTable } from "../db/schema.js";
import { contentRole } from "../policy.js";
import type { Urls } from "../urls.js";
import { spacePermissions } from "./policy.js";
import { activityOf, type SpaceActivity } from "./store.js";

export function presentSpace(
  row: SpaceTable,
  role: Role,
  activity: SpaceActivity,
  urls: Urls,
): Schema<"Space"> {
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
    defaultLevel: row.default_level,
    ...activity,
    permissions: spacePermissions(role),
  };
}

/** Presents one space, loading its activity counts. */
export async function presentOneSpace(
  db: Db,
  row: SpaceTable,
  role: Role,
  urls: Urls,
): Promise<Schema<"Space">> {
  const activity = await activityOf(db, [row.id]);
  return presentSpace(row, role, activity.get(row.id) ?? emptyActivity, urls);
}

const emptyActivity: SpaceActivity = {
  comments: 0,
  changeRequests: 0,
  changeRequestsOpen: 0,
  changeRequestsDraft: 0,
};

/** A presenter for a page of spaces: loads every row's activity in one go, then maps rows. */
export async function presentSpaces(db: Db, rows: readonly SpaceTable[], organizationRole: Role, urls: Urls) {
  const activity = await activityOf(
    db,
    rows.map((r) => r.id),
  );
  return (row: SpaceTable) =>
    presentSpace(
      row,
      contentRole(organizationRole, row.default_level),
      activity.get(row.id) ?? emptyActivity,
      urls,
    );
}
