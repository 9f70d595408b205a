// Just enough of OpenAPI 3.1 to walk a compiled contract: documents stay plain JSON values.

export type JsonPath = ReadonlyArray<string | number>;

export const HTTP_METHODS: ReadonlySet<string> = new Set([
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
]);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows local `$ref`s ("#/components/…") until a node that is not a reference. */
export function deref(doc: unknown, node: unknown): unknown {
  const seen = new Set<string>();
  let current = node;
  while (isRecord(current) && typeof current.$ref === "string" && current.$ref.startsWith("#/")) {
    if (seen.has(current.$ref)) return undefined;
    seen.add(current.$ref);
    current = current.$ref
      .slice(2)
      .split("/")
      .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>((parent, key) => (isRecord(parent) ? parent[key] : undefined), doc);
  }
  return current;
}

/** The child of a node, looking through a `$ref` unless the key sits beside it (3.1 allows siblings). */
export function child(doc: unknown, node: unknown, key: string | number): unknown {
  if (isRecord(node) && typeof key === "string" && key in node) return node[key];
  const target = deref(doc, node);
  if (Array.isArray(target)) return typeof key === "number" ? target[key] : undefined;
  return isRecord(target) ? target[String(key)] : undefined;
}

/** The node at `path`, resolving references on the way, as api-smart-diff does when it compares. */
export function walk(doc: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((node, key) => child(doc, node, key), doc);
}
