import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

let shared: OpenApiSpec | undefined;

/** The contract the server serves, read once (never modify it: take `loadApiSpec()` for a copy). */
export function servedApiSpec(): OpenApiSpec {
  shared ??= loadApiSpec();
  return shared;
}

/** The compiled contract, as committed in the spec package: a fresh copy on each call. */
export function loadApiSpec(): OpenApiSpec {
  return JSON.parse(readFileSync(require.resolve("@quire/spec/openapi.json"), "utf8")) as OpenApiSpec;
}

export interface OpenApiSpec {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string }>>;
  [key: string]: unknown;
}
