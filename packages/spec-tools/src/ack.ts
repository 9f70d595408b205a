import { parse } from "yaml";
import { type Change, isBreaking } from "./change.js";
import { isRecord } from "./openapi.js";

/** Where intended breaking changes are listed, relative to the repository root. */
export const ACKNOWLEDGEMENTS_FILE = "spec/breaking-changes.yaml";

export interface Acknowledgement {
  /** A change's id; `*` stands for any run of characters, for a change seen at many use sites. */
  id: string;
  reason: string;
}

export type ReviewedChange = Change & {
  /** The reason given for an acknowledged breaking change. */
  acknowledged?: string;
};

export interface Review {
  changes: ReviewedChange[];
  /** Acknowledgements that match no breaking change: done with, or mistyped. */
  stale: Acknowledgement[];
}

/** Reads the acknowledgements file: `acknowledged:` followed by a list of `id` and `reason`. */
export function parseAcknowledgements(text: string): Acknowledgement[] {
  const fail = (problem: string): never => {
    throw new Error(`${ACKNOWLEDGEMENTS_FILE}: ${problem}`);
  };
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    return fail(`not valid YAML (${(error as Error).message})`);
  }
  if (document === null || document === undefined) return [];
  const entries = isRecord(document) ? (document.acknowledged ?? []) : undefined;
  if (!Array.isArray(entries))
    return fail("expected `acknowledged:` with a list of entries with `id` and `reason`");
  return entries.map((entry: unknown, index) => {
    const { id, reason } = isRecord(entry) ? entry : {};
    if (typeof id !== "string" || id.trim() === "") return fail(`entry ${index + 1} needs an \`id\``);
    if (typeof reason !== "string" || reason.trim() === "") return fail(`entry ${id} needs a \`reason\``);
    return { id, reason: reason.trim() };
  });
}

export function review(changes: Change[], acknowledgements: Acknowledgement[]): Review {
  const patterns = acknowledgements.map((acknowledgement) => ({
    acknowledgement,
    pattern: idPattern(acknowledgement.id),
  }));
  const used = new Set<Acknowledgement>();
  const reviewed = changes.map((change): ReviewedChange => {
    const match = isBreaking(change) ? patterns.find(({ pattern }) => pattern.test(change.id)) : undefined;
    if (!match) return change;
    used.add(match.acknowledgement);
    return { ...change, acknowledged: match.acknowledgement.reason };
  });
  return {
    changes: reviewed,
    stale: acknowledgements.filter((acknowledgement) => !used.has(acknowledgement)),
  };
}

function idPattern(id: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${id.split("*").map(literal).join(".*")}$`);
}

export function unacknowledgedBreaks(changes: ReviewedChange[]): ReviewedChange[] {
  return changes.filter((change) => isBreaking(change) && change.acknowledged === undefined);
}
