import type { Schema } from "@quire/api-types";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 */
export interface OpenApiSpecsTables {
  openapi_specs: OpenApiSpecTable;
  openapi_spec_versions: OpenApiSpecVersionTable;
}

export interface OpenApiSpecTable {
  id: string;
  organization_id: string;
  /** Unique in the organization. */
  slug: string;
  /** Set for a URL source, null for a text source. */
  source_url: string | null;
  /** Set for a text source, null for a URL source. */
  source_text: string | null;
  /**
   * Raised by every change of source and every refresh, each of which enqueues a processing job:
   * a job applies its outcome only while the revision is still the one it was enqueued for.
   */
  source_revision: number;
  processing_state: Schema<"OpenAPISpecProcessingState">;
  /** The latest version; no foreign key, since versions refer to their spec. */
  last_version_id: string | null;
  last_processed_at: string | null;
  /** Why the last processing failed; null when it succeeded or none ended yet. */
  last_process_error_code: Schema<"OpenAPISpecProcessingErrorCode"> | null;
  /**
   * How many errors the last processing found: the parser's errors in the document, 1 for a fetch
   * that failed, 0 when it succeeded or none ended yet.
   */
  last_processed_error_count: number;
  created_at: string;
  updated_at: string;
}

/** A content of a specification that parsed and validated; a new one when the content or URL changes. */
export interface OpenApiSpecVersionTable {
  id: string;
  spec_id: string;
  /** The URL it was fetched from (after redirects), null for a text source. */
  url: string | null;
  /** The document as fetched or given, JSON or YAML. */
  content: string;
  /** SHA-256 of `content`, hex. */
  digest: string;
  created_at: string;
}

declare module "../db/schema.js" {
  interface Database extends OpenApiSpecsTables {}
}
