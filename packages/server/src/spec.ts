import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The compiled contract, as committed in the spec package. */
export function loadApiSpec(): OpenApiSpec {
  return JSON.parse(readFileSync(require.resolve("@quire/spec/openapi.json"), "utf8")) as OpenApiSpec;
}

export interface OpenApiSpec {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string }>>;
  [key: string]: unknown;
}
