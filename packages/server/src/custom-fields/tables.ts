import type { Schema } from "@quire/api-types";

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
  /** JSON array of strings for select fields, null for the other types. */
  options: string | null;
  created_at: string;
  updated_at: string;
}

export interface SpaceCustomFieldValueTable {
  space_id: string;
  custom_field_id: string;
  /** JSON of the value, in the shape of the field's type. */
  value: string;
}

declare module "../db/schema.js" {
  interface Database extends CustomFieldsTables {}
}
