import type { ColumnsOf } from "../db/columns.js";
import type { CustomFieldsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const customFieldsColumns: ColumnsOf<CustomFieldsTables> = {
  custom_fields: {
    id: "not null",
    organization_id: "not null",
    name: "not null",
    title: "not null",
    description: "not null",
    type: "not null",
    placeholder: "not null",
    options: "null",
    created_at: "not null",
    updated_at: "not null",
  },
  space_custom_field_values: {
    space_id: "not null",
    custom_field_id: "not null",
    value: "not null",
  },
};
