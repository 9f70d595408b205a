import type { Schema } from "@quire/api-types";
import { fromJson } from "../db/codecs.js";
import type { OrganizationRole } from "../policy.js";
import type { Urls } from "../urls.js";
import { customFieldPermissions } from "./policy.js";
import type { CustomFieldTable, SpaceCustomFieldValueTable } from "./tables.js";

export function presentCustomField(
  row: CustomFieldTable,
  role: OrganizationRole,
  urls: Urls,
): Schema<"CustomField"> {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    type: row.type,
    placeholder: row.placeholder,
    ...(row.options !== null && { options: fromJson(row.options) }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: urls.api(`orgs/${row.organization_id}/custom-fields/${row.name}`) },
    permissions: customFieldPermissions(role),
  };
}

/** Presents fields of one organization to a caller with `role` there. */
export const presentCustomFieldFor =
  (role: OrganizationRole, urls: Urls) =>
  (row: CustomFieldTable): Schema<"CustomField"> =>
    presentCustomField(row, role, urls);

/** A field with the value a space gives it, or null when it has none. */
export const presentSpaceValueFor =
  (role: OrganizationRole, urls: Urls) =>
  (
    row: CustomFieldTable & { value: SpaceCustomFieldValueTable["value"] | null },
  ): Schema<"CustomFieldValue"> => ({
    customField: presentCustomField(row, role, urls),
    ...(row.value !== null && { value: fromJson(row.value) }),
  });
