import type { ColumnsOf } from "../db/columns.js";
import type { OpenApiSpecsTables } from "./tables.js";

/** Every column of this area's tables with its nullability, checked by src/db/schema.test.ts. */
export const openApiSpecsColumns: ColumnsOf<OpenApiSpecsTables> = {
  openapi_specs: {
    id: "not null",
    organization_id: "not null",
    slug: "not null",
    source_url: "null",
    source_text: "null",
    source_revision: "not null",
    processing_state: "not null",
    last_version_id: "null",
    last_processed_at: "null",
    last_process_error_code: "null",
    last_processed_error_count: "not null",
    created_at: "not null",
    updated_at: "not null",
  },
  openapi_spec_versions: {
    id: "not null",
    spec_id: "not null",
    url: "null",
    content: "not null",
    digest: "not null",
    created_at: "not null",
  },
};
