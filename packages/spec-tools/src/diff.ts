import { apiCompare, type Diff } from "api-smart-diff";
import { type Change, changeId } from "./change.js";
import { type Contracts, describe } from "./describe.js";
import { CLASSIFICATION_RULES, type ClassificationRule, securityChanges } from "./rules.js";

/**
 * Every change from one compiled OpenAPI contract to another, classified.
 *
 * api-smart-diff resolves `$ref`s and classifies each change where the schema is used, so a component
 * shared by a request and a response is judged once per use site; our rules (./rules.ts) then correct
 * or complete its classification.
 */
export function diffContracts(before: unknown, after: unknown): Change[] {
  const contracts: Contracts = { before, after };
  const diffs = foldRequiredIntoProperty(apiCompare(before, after).diffs.filter(isReported));
  const changes = diffs.map(({ diff, requiredProperty }) => classify(diff, contracts, requiredProperty));
  return [...changes, ...securityChanges(contracts)].sort((a, b) => compareText(sortKey(a), sortKey(b)));
}

/**
 * Components are compared where they are used, so their own diffs would only repeat those; security is
 * compared by our own rule (see securityChanges).
 */
function isReported(diff: Diff): boolean {
  const [root, , , field] = diff.path;
  return root !== "components" && root !== "security" && !(root === "paths" && field === "security");
}

/**
 * Adding or removing a required property shows up twice in the library, as the property and as its
 * entry in `required`. Keep one change, so one acknowledgement covers it, breaking if either was.
 */
function foldRequiredIntoProperty(diffs: Diff[]): Array<{ diff: Diff; requiredProperty: boolean }> {
  const key = (path: Diff["path"], action: Diff["action"]) => `${action} ${JSON.stringify(path)}`;
  const byKey = new Map(diffs.map((diff) => [key(diff.path, diff.action), diff]));
  const requiredEntryOf = new Map<Diff, Diff>();
  for (const diff of diffs) {
    const name = diff.action === "add" ? diff.after : diff.before;
    if (diff.path.at(-2) !== "required" || typeof name !== "string") continue;
    const property = byKey.get(key([...diff.path.slice(0, -2), "properties", name], diff.action));
    if (property) requiredEntryOf.set(property, diff);
  }
  const folded = new Set(requiredEntryOf.values());
  return diffs
    .filter((diff) => !folded.has(diff))
    .map((diff) => {
      const required = requiredEntryOf.get(diff);
      if (!required) return { diff, requiredProperty: false };
      return {
        diff: required.type === "breaking" ? { ...diff, type: required.type } : diff,
        requiredProperty: true,
      };
    });
}

function classify(diff: Diff, contracts: Contracts, requiredProperty: boolean): Change {
  const description = describe(diff, contracts, requiredProperty);
  return {
    id: changeId(description.verb, description.operation, description.location),
    ...applyRules(diff, { ...contracts, side: description.side }),
    ...description,
    ...(diff.before !== undefined && { before: diff.before }),
    ...(diff.after !== undefined && { after: diff.after }),
  };
}

/** The first of our rules that applies decides; it is named when it overrides the library's verdict. */
function applyRules(
  diff: Diff,
  context: Parameters<ClassificationRule["classify"]>[1],
): Pick<Change, "type" | "rule"> {
  for (const rule of CLASSIFICATION_RULES) {
    const type = rule.classify(diff, context);
    if (type) return type === diff.type ? { type } : { type, rule: rule.name };
  }
  return { type: diff.type };
}

/** Code-unit order, the same on every machine (unlike localeCompare). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKey(change: Change): string {
  const { path = "", method = "" } = change.operation ?? {};
  return [path, method, change.location, change.verb].join("\u0000");
}
