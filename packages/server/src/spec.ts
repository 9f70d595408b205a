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

/** The values of one of the contract's enums (`components.schemas[name].enum`), for checks the schema cannot say. */
export function contractEnum(name: string): ReadonlySet<string> {
  const schemas = (servedApiSpec().components as { schemas: Record<string, { enum?: string[] }> }).schemas;
  const values = schemas[name]?.enum;
  if (!values) throw new Error(`The contract has no enum ${name}.`);
  return new Set(values);
}

export interface OpenApiSpec {
  openapi: string;
  paths: Record<string, Record<string, { operationId?: string }>>;
  [key: string]: unknown;
}
