import type { Schema } from "@quire/api-types";
import { presentedDefaultLevel } from "../content/tree.js";
import type { CollectionTable, Role } from "../db/schema.js";
import type { Urls } from "../urls.js";
import { collectionPermissions } from "./policy.js";

export function presentCollection(
  row: CollectionTable,
  role: Role | undefined,
  urls: Urls,
): Schema<"Collection"> {
  return {
    object: "collection",
    id: row.id,
    title: row.title,
    ...(row.description !== null && { description: row.description }),
    organization: row.organization_id,
    ...(row.parent_id !== null && { parent: row.parent_id }),
    defaultLevel: presentedDefaultLevel(row),
    urls: { location: urls.api(`collections/${row.id}`), app: urls.app(`collections/${row.id}`) },
    permissions: collectionPermissions(role),
  };
}
