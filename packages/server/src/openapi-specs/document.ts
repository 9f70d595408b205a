import { validate } from "@scalar/openapi-parser";

/**
 * A document's OpenAPI version (`2.0` for Swagger), or why it is not a valid OpenAPI document and
 * how many errors the parser found in it.
 */
export type DocumentCheck =
  | { valid: true; version: string }
  | { valid: false; reason: string; errorCount: number };

/**
 * Parses JSON or YAML text and validates it as Swagger 2.0 or OpenAPI 3.x. The one place that knows
 * the parser, a 0.x version pinned exactly: it never fetches references outside the document, which
 * then fail the check.
 */
export async function checkOpenApiDocument(text: string): Promise<DocumentCheck> {
  try {
    const result = await validate(text);
    if (result.valid) return { valid: true, version: result.version };
    return {
      valid: false,
      reason: result.errors.map((error) => error.message).join("; "),
      // An invalid result always names at least one error; the floor guards against one that does not.
      errorCount: Math.max(result.errors.length, 1),
    };
  } catch (err) {
    return { valid: false, reason: err instanceof Error ? err.message : String(err), errorCount: 1 };
  }
}
