/** Whether a parsed YAML or JSON value is a mapping (an object, not an array nor null). */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
