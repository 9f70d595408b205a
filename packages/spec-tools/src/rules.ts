// Our rules on top of api-smart-diff: each corrects or completes its classification for one kind of
// change. A change records the rule that overrode the library, so tests show which verdicts are ours.
import type { Diff, DiffType } from "api-smart-diff";
import { type Change, changeId, type Operation, type Side } from "./change.js";
import type { Contracts } from "./describe.js";
import { deref, HTTP_METHODS, isRecord, type JsonPath, walk } from "./openapi.js";

export interface ClassificationRule {
  name: string;
  /** The diff's classification under this rule, or undefined when the rule does not apply. */
  classify(diff: Diff, context: Contracts & { side: Side }): DiffType | undefined;
}

/**
 * A schema's `type` changed. api-smart-diff lets `integer` → `string` pass in a response or a query
 * parameter, yet fails a request body property that now also accepts `null`. Judge by direction
 * instead: a request breaks when a type it accepted is gone, a response when it may carry a type it did
 * not before (which is how "now nullable" shows up as `type: [string, null]`).
 */
export const typeChange: ClassificationRule = {
  name: "type-change",
  classify(diff, { side }) {
    if (side === "other" || diff.action !== "replace") return;
    if (diff.path.at(-1) !== "type" || diff.path.at(-2) === "properties") return;
    const before = typeList(diff.before);
    const after = typeList(diff.after);
    if (!before || !after) return;
    const lost = before.some((type) => !accepts(after, type));
    const gained = after.some((type) => !accepts(before, type));
    return (side === "request" ? lost : gained) ? "breaking" : "non-breaking";
  },
};

function typeList(type: unknown): string[] | undefined {
  if (typeof type === "string") return [type];
  if (Array.isArray(type) && type.every((item) => typeof item === "string")) return type;
  return undefined;
}

function accepts(types: string[], type: string): boolean {
  return types.includes(type) || (type === "integer" && types.includes("number"));
}

/**
 * An enum value is gone: removed, or replaced (api-smart-diff pairs a removed value with an added one).
 * The library breaks only requests on a removal, and a response only on an addition. Our policy: a
 * value clients handle that never arrives again is a break too, since they may send it back.
 */
export const enumValueRemoved: ClassificationRule = {
  name: "enum-value-removed",
  classify(diff, { side }) {
    if (side !== "other" && diff.action !== "add" && diff.path.at(-2) === "enum") return "breaking";
  },
};

/**
 * A response property is gone. The library breaks only required ones (clients must cope with an
 * optional one's absence anyway); our policy breaks any, since clients lose data they were reading.
 */
export const responsePropertyRemoved: ClassificationRule = {
  name: "response-property-removed",
  classify(diff, { side }) {
    if (side === "response" && diff.action === "remove" && diff.path.at(-2) === "properties")
      return "breaking";
  },
};

/**
 * The change is inside a property that does not travel this way: `readOnly` ones are never sent (so
 * not part of a request), `writeOnly` ones never returned. TypeSpec marks `@visibility(Lifecycle.Read)`
 * properties `readOnly` in a schema shared by requests and responses, and api-smart-diff ignores the
 * flag, so without this rule a new required read-only property would break every request.
 */
export const oneWayProperty: ClassificationRule = {
  name: "one-way-property",
  classify(diff, context) {
    const flag =
      context.side === "request" ? "readOnly" : context.side === "response" ? "writeOnly" : undefined;
    if (!flag) return;
    const flagged = (path: JsonPath) => {
      const versions = [context.before, context.after]
        .map((doc) => deref(doc, walk(doc, path)))
        .filter((schema) => schema !== undefined);
      return versions.length > 0 && versions.every((schema) => isRecord(schema) && schema[flag] === true);
    };
    return propertyPaths(diff).some(flagged) ? "non-breaking" : undefined;
  },
};

/** Every property the diff is inside, including the one a `required` entry names. */
function propertyPaths(diff: Diff): JsonPath[] {
  const paths = diff.path.flatMap((key, i) =>
    key === "properties" && i + 1 < diff.path.length ? [diff.path.slice(0, i + 2)] : [],
  );
  const named = diff.action === "add" ? diff.after : diff.before;
  if (diff.path.at(-2) === "required" && typeof named === "string") {
    paths.push([...diff.path.slice(0, -2), "properties", named]);
  }
  return paths;
}

/** In order: the first rule that applies decides, so properties that do not travel a way come first. */
export const CLASSIFICATION_RULES: readonly ClassificationRule[] = [
  oneWayProperty,
  typeChange,
  enumValueRemoved,
  responsePropertyRemoved,
];

export const SECURITY_RULE = "security-requirements";

/**
 * Replaces api-smart-diff's security diffs, which compare an operation's own `security` only: ours
 * compares the effective requirements (the operation's, else the document's), so adding auth to the
 * whole API shows on every operation. The change breaks when a way of calling the operation that used
 * to work no longer does: some earlier alternative (an anonymous call being one) satisfies none now.
 */
export function securityChanges(contracts: Contracts): Change[] {
  const changes: Change[] = [];
  for (const { operation, before, after } of matchedOperations(contracts)) {
    const was = requirements(contracts.before, before);
    const now = requirements(contracts.after, after);
    const shown = (alternatives: Requirement[]) => alternatives.map(label).sort();
    if (shown(was).join() === shown(now).join()) continue;
    const lost = was.some((earlier) => !now.some((current) => satisfies(earlier, current)));
    changes.push({
      id: changeId("changed", operation, "security"),
      type: lost ? "breaking" : "non-breaking",
      verb: "changed",
      operation,
      side: "request",
      location: "security",
      summary: lost ? "security requirements tightened" : "security requirements relaxed",
      before: shown(was),
      after: shown(now),
      rule: SECURITY_RULE,
    });
  }
  return changes;
}

/** One alternative of a security requirement: scheme name → scopes. Empty means anonymous. */
type Requirement = Map<string, Set<string>>;

function requirements(doc: unknown, operation: Record<string, unknown>): Requirement[] {
  const declared = Array.isArray(operation.security)
    ? operation.security
    : isRecord(doc)
      ? doc.security
      : undefined;
  const alternatives = Array.isArray(declared) && declared.length > 0 ? declared : [{}];
  return alternatives
    .filter(isRecord)
    .map(
      (alternative) =>
        new Map(
          Object.entries(alternative).map(([scheme, scopes]) => [
            scheme,
            new Set(Array.isArray(scopes) ? scopes.map(String) : []),
          ]),
        ),
    );
}

/** Credentials that met `earlier` also meet `current`: it asks for no other scheme or scope. */
function satisfies(earlier: Requirement, current: Requirement): boolean {
  return [...current].every(([scheme, scopes]) => {
    const held = earlier.get(scheme);
    return held !== undefined && [...scopes].every((scope) => held.has(scope));
  });
}

function label(requirement: Requirement): string {
  if (requirement.size === 0) return "anonymous";
  return [...requirement]
    .map(([scheme, scopes]) => (scopes.size > 0 ? `${scheme}[${[...scopes].sort().join(" ")}]` : scheme))
    .sort()
    .join(" + ");
}

/** Operations in both contracts; path templates match regardless of parameter names, as in the library. */
function matchedOperations(
  contracts: Contracts,
): Array<{ operation: Operation; before: Record<string, unknown>; after: Record<string, unknown> }> {
  const pathsOf = (doc: unknown) => Object.entries(isRecord(doc) && isRecord(doc.paths) ? doc.paths : {});
  const template = (path: string) => path.replace(/\{[^}]*\}/g, "{}");
  const afterItems = new Map(
    pathsOf(contracts.after).map(([path, item]) => [template(path), deref(contracts.after, item)]),
  );
  return pathsOf(contracts.before).flatMap(([path, beforeItem]) => {
    const item = deref(contracts.before, beforeItem);
    const afterItem = afterItems.get(template(path));
    if (!isRecord(item) || !isRecord(afterItem)) return [];
    return [...HTTP_METHODS].flatMap((method) => {
      const before = item[method];
      const after = afterItem[method];
      if (!isRecord(before) || !isRecord(after)) return [];
      const operationId = typeof before.operationId === "string" ? before.operationId : undefined;
      return [{ operation: { path, method, ...(operationId && { operationId }) }, before, after }];
    });
  });
}
