import type { ColumnsOf } from "../db/columns.js";
import type { TranslationsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const translationsColumns: ColumnsOf<TranslationsTables> = {
  translation_settings: {
    id: "not null",
    organization_id: "not null",
    title: "not null",
    languages: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
};
