import type { Schema } from "@quire/api-types";
import { fromJson } from "../db/codecs.js";
import type { Urls } from "../urls.js";
import { presentUser } from "../users/index.js";
import { baseRevisionOf, type ChangeRequestRow } from "./store.js";

/** The change request; `spaceRevision` (the main content's current revision) tells whether it is outdated. */
export function presentChangeRequest(
  row: ChangeRequestRow,
  spaceRevision: string,
  urls: Urls,
): Schema<"ChangeRequest"> {
  return {
    object: "change-request",
    id: row.id,
    space: row.space_id,
    number: row.number,
    status: row.status,
    subject: row.subject,
    createdBy: presentUser(
      {
        id: row.created_by,
        display_name: row.creator_display_name,
        email: row.creator_email,
        photo_url: row.creator_photo_url,
        created_at: row.creator_created_at,
      },
      urls,
    ),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    revision: row.revision_id,
    revisionInitial: row.revision_initial_id,
    ...(row.revision_merged_ancestor_id !== null && {
      revisionMergedAncestor: row.revision_merged_ancestor_id,
    }),
    ...(row.revision_merged_id !== null && { revisionMerged: row.revision_merged_id }),
    comments: Number(row.open_comments),
    outdated: row.status !== "merged" && spaceRevision !== baseRevisionOf(row),
    ...(row.description !== null && { description: fromJson(row.description) }),
    ...(row.links !== null && { links: fromJson(row.links) }),
    urls: {
      app: urls.app(`spaces/${row.space_id}/change-requests/${row.number}`),
      location: urls.api(`spaces/${row.space_id}/change-requests/${row.id}`),
    },
  };
}
