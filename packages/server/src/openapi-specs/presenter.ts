import type { Schema } from "@quire/api-types";
import type { OrganizationRole } from "../policy.js";
import type { Urls } from "../urls.js";
import { specPermissions } from "./policy.js";
import type { OpenApiSpecTable } from "./tables.js";

export function presentSpec(
  row: OpenApiSpecTable,
  role: OrganizationRole,
  urls: Urls,
): Schema<"OpenAPISpec"> {
  const path = `orgs/${row.organization_id}/openapi/${row.slug}`;
  return {
    object: "openapi-spec",
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    slug: row.slug,
    ...(row.source_url !== null && { sourceURL: row.source_url }),
    processingState: row.processing_state,
    ...(row.last_version_id !== null && { lastVersion: row.last_version_id }),
    ...(row.last_processed_at !== null && { lastProcessedAt: row.last_processed_at }),
    ...(row.last_process_error_code !== null && { lastProcessErrorCode: row.last_process_error_code }),
    lastProcessedErrorCount: row.last_processed_error_count,
    permissions: specPermissions(role),
    urls: { location: urls.api(path), app: urls.app(path) },
  };
}
