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
  /** JSON array of `TranslationLanguage` codes, in the order they were given. */
  languages: string;
  created_at: string;
  updated_at: string;
}

declare module "../db/schema.js" {
  interface Database extends TranslationsTables {}
}
