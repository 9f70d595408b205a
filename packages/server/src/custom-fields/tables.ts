import type { Schema } from "@quire/api-types";
import type { JsonText } from "../db/codecs.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface CustomFieldsTables {
  custom_fields: CustomFieldTable;
  space_custom_field_values: SpaceCustomFieldValueTable;
}

export interface CustomFieldTable {
  id: string;
  organization_id: string;
  /** Unique in the organization; never changes. */
  name: string;
  title: string;
  description: string;
  /** Never changes, so stored values always have the field's shape. */
  type: Schema<"CustomFieldType">;
  placeholder: string;
  /** Set for select fields, null for the other types. */
  options: JsonText<string[]> | null;
  created_at: string;
  updated_at: string;
}

export interface SpaceCustomFieldValueTable {
  space_id: string;
  custom_field_id: string;
  /** In the shape of the field's type. */
  value: JsonText<Schema<"CustomFieldValueData">>;
}

declare module "../db/schema.js" {
  interface Database extends CustomFieldsTables {}
}
