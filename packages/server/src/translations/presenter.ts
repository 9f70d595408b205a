import type { Schema } from "@quire/api-types";
import { fromJson } from "../db/codecs.js";
import type { OrganizationRole } from "../policy.js";
import type { Urls } from "../urls.js";
import { translationSettingsPermissions } from "./policy.js";
import type { TranslationSettingsTable } from "./tables.js";

export function presentTranslationSettings(
  row: TranslationSettingsTable,
  role: OrganizationRole,
  urls: Urls,
): Schema<"TranslationSettings"> {
  return {
    object: "translation-settings",
    id: row.id,
    title: row.title,
    languages: fromJson(row.languages),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    permissions: translationSettingsPermissions(role),
    urls: { location: urls.api(`orgs/${row.organization_id}/translations/${row.id}`) },
  };
}
