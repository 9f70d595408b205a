import type { DiffType } from "api-smart-diff";

export type Verb = "added" | "removed" | "changed" | "renamed";

/** Which way the changed part travels: what clients send, what they receive, or neither. */
export type Side = "request" | "response" | "other";

export interface Operation {
  path: string;
  /** Absent for changes to a whole path item (its shared parameters, its template). */
  method?: string;
  operationId?: string;
}

export interface Change {
  /** Derived from the change's content only, so it is the same on every run and machine. */
  id: string;
  type: DiffType;
  verb: Verb;
  operation?: Operation;
  side: Side;
  /** Where in the operation, e.g. `response.200.body.title` or `query.limit.maximum`. */
  location: string;
  /** What changed, e.g. `required property removed`. */
  summary: string;
  before?: unknown;
  after?: unknown;
  /** The name of our rule that overrode api-smart-diff's classification; absent when the library's stands. */
  rule?: string;
}

export const isBreaking = (change: Change): boolean => change.type === "breaking";

export function changeId(verb: Verb, operation: Operation | undefined, location: string): string {
  const subject =
    operation &&
    (operation.operationId ?? [operation.method?.toUpperCase(), operation.path].join(" ").trim());
  return [verb, subject, location].filter(Boolean).join(":");
}

export function operationLabel(operation: Operation): string {
  const route = [operation.method?.toUpperCase(), operation.path].filter(Boolean).join(" ");
  return operation.operationId ? `${route} (${operation.operationId})` : route;
}
