import type { Schema } from "@quire/api-types";
import type { JsonText } from "../db/codecs.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface TranslationsTables {
  translation_settings: TranslationSettingsTable;
}

export interface TranslationSettingsTable {
  id: string;
  organization_id: string;
  title: string;
  /** In the order they were given. */
  languages: JsonText<Schema<"TranslationLanguage">[]>;
  created_at: string;
  updated_at: string;
}

declare module "../db/schema.js" {
  interface Database extends TranslationsTables {}
}
