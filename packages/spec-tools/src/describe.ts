import type { Diff } from "api-smart-diff";
import type { Operation, Side, Verb } from "./change.js";
import { deref, HTTP_METHODS, isRecord, type JsonPath, walk } from "./openapi.js";

export interface Contracts {
  before: unknown;
  after: unknown;
}

export interface Description {
  verb: Verb;
  operation?: Operation;
  side: Side;
  location: string;
  summary: string;
}

const VERBS: Record<Diff["action"], Verb> = {
  add: "added",
  remove: "removed",
  replace: "changed",
  rename: "renamed",
};

/**
 * Names a library diff by operation, location and what changed.
 *
 * api-smart-diff reports paths in the base document's coordinates (renamed path templates keep their
 * old key, array items their old index), except that an added node's own key is its index in the
 * merged array. So nodes are looked up in the base document, and an added node is the diff's value.
 * Array items are named by content where they have a name (see itemName), so ids do not shift when
 * neighbours are added or removed.
 */
export function describe(diff: Diff, contracts: Contracts, requiredProperty = false): Description {
  const verb = VERBS[diff.action];
  if (diff.action === "rename" && diff.path.length === 1 && diff.path[0] === "paths") {
    const operation = { path: String(diff.after) };
    return {
      verb,
      operation,
      side: "other",
      location: "",
      summary: `path template renamed from ${diff.before}`,
    };
  }
  const valueAt = (depth: number): unknown =>
    depth === diff.path.length && diff.action === "add"
      ? deref(contracts.after, diff.after)
      : deref(contracts.before, walk(contracts.before, diff.path.slice(0, depth)));
  const { operation, offset } = locateOperation(diff, valueAt);
  const rest = diff.path.slice(offset);
  const restValueAt = (index: number): unknown => valueAt(offset + index + 1);
  return {
    verb,
    ...(operation && { operation }),
    side: sideOf(rest),
    location: compactLocation(rest, restValueAt),
    summary: summarize(diff, rest, verb, operation, restValueAt, requiredProperty),
  };
}

function locateOperation(
  diff: Diff,
  valueAt: (depth: number) => unknown,
): { operation?: Operation; offset: number } {
  const [root, path, method] = diff.path;
  if (root !== "paths" || typeof path !== "string") return { offset: 0 };
  if (typeof method !== "string" || !HTTP_METHODS.has(method)) return { operation: { path }, offset: 2 };
  const operationId = (valueAt(3) as { operationId?: unknown } | undefined)?.operationId;
  return {
    operation: { path, method, ...(typeof operationId === "string" && { operationId }) },
    offset: 3,
  };
}

function sideOf(rest: JsonPath): Side {
  if (rest[0] === "responses") return "response";
  if (rest[0] === "parameters" || rest[0] === "requestBody") return "request";
  return "other";
}

/** `responses/200/content/application~1json/schema/properties/title` becomes `response.200.body.title`. */
function compactLocation(rest: JsonPath, valueAt: (index: number) => unknown): string {
  const parts: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const key = rest[i];
    const next = rest[i + 1];
    const skipSchema = () => {
      if (rest[i + 1] === "schema") i++;
    };
    if (key === "requestBody") {
      parts.push("request");
    } else if (key === "responses" && next !== undefined) {
      parts.push(`response.${next}`);
      i++;
    } else if (key === "content" && next !== undefined) {
      parts.push(next === "application/json" ? "body" : `body(${next})`);
      i++;
      skipSchema();
    } else if (key === "parameters" && next !== undefined) {
      parts.push(itemName(valueAt(i + 1)) ?? `parameters.${next}`);
      i++;
      skipSchema();
    } else if (key === "headers" && next !== undefined) {
      parts.push(`header.${next}`);
      i++;
      skipSchema();
    } else if (key === "properties" && next !== undefined) {
      parts.push(String(next));
      i++;
    } else if (key === "items") {
      parts.push(`${parts.pop() ?? ""}[]`);
    } else if (typeof key === "number") {
      parts.push(itemName(valueAt(i)) ?? String(key));
    } else if (key !== undefined) {
      parts.push(key);
    }
  }
  return parts.join(".");
}

/** An array item by content: a scalar by its value, a parameter by `in` and `name`, a tag by `name`. */
function itemName(item: unknown): string | undefined {
  if (Array.isArray(item)) return undefined;
  if (!isRecord(item)) return String(item);
  if (typeof item.name !== "string") return undefined;
  return typeof item.in === "string" ? `${item.in}.${item.name}` : item.name;
}

function summarize(
  diff: Diff,
  rest: JsonPath,
  verb: Verb,
  operation: Operation | undefined,
  valueAt: (index: number) => unknown,
  requiredProperty: boolean,
): string {
  const key = rest.at(-1);
  const parent = rest.at(-2);
  if (key === undefined) return operation?.method ? `operation ${verb}` : `path ${verb}`;
  if (parent === "properties") return `${requiredProperty ? "required " : ""}property ${verb}`;
  if (parent === "required" || key === "required") {
    if (diff.action === "add" || diff.after === true) return "made required";
    if (diff.action === "remove" || diff.before === true) return "no longer required";
  }
  if (parent === "enum") return `enum value ${verb}`;
  if (parent === "responses") return `response ${verb}`;
  if (parent === "parameters") {
    const parameter = valueAt(rest.length - 1);
    return `${isRecord(parameter) && parameter.required === true ? "required " : ""}parameter ${verb}`;
  }
  if (
    (parent === "anyOf" || parent === "oneOf") &&
    isNullSchema(diff.action === "add" ? diff.after : diff.before)
  ) {
    return diff.action === "add" ? "now nullable" : "no longer nullable";
  }
  if (key === "type" && allowsNull(diff.after) !== allowsNull(diff.before)) {
    return allowsNull(diff.after) ? "now nullable" : "no longer nullable";
  }
  return typeof key === "string" ? `${key} ${verb}` : `${String(parent)} item ${verb}`;
}

function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && schema.type === "null";
}

function allowsNull(type: unknown): boolean {
  return type === "null" || (Array.isArray(type) && type.includes("null"));
}
