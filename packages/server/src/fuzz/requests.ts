import fc from "fast-check";
import { sample } from "openapi-sampler";
import { HTTP_METHODS, type HttpMethod } from "../http/contract.js";
import type { OpenApiSpec } from "../spec.js";

/** What the fuzzer reads of an operation of the contract. */
interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema?: JsonSchema;
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  $ref?: string;
  anyOf?: JsonSchema[];
}

interface OperationObject {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: Record<string, { schema: object }> };
}

export interface FuzzOperation {
  method: HttpMethod;
  path: string;
  operationId: string;
  parameters: Parameter[];
  bodySchema: object | undefined;
}

/** Who sends a request: a token of the organization's admin, of a reader, or none. */
export type Sender = "admin" | "reader" | "none";

export interface FuzzRequest {
  operationId: string;
  method: HttpMethod;
  /** Path and query, encoded. */
  url: string;
  body: unknown;
  sender: Sender;
}

/** The operations of the contract, less those left out (still pending, say). */
export function fuzzOperations(spec: OpenApiSpec, leftOut: ReadonlySet<string>): FuzzOperation[] {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method] as OperationObject | undefined;
      if (!operation || leftOut.has(operation.operationId)) return [];
      return [
        {
          method,
          path,
          operationId: operation.operationId,
          parameters: (operation.parameters ?? []).map((parameter) =>
            "$ref" in parameter
              ? ((spec.components as { parameters: Record<string, Parameter> }).parameters[
                  parameter.$ref.replace("#/components/parameters/", "")
                ] as Parameter)
              : parameter,
          ),
          bodySchema: operation.requestBody?.content["application/json"]?.schema,
        },
      ];
    }),
  );
}

/** Resolves `$ref`s into the spec's components, so that enums and numbers are read where they are. */
function resolved(schema: JsonSchema | undefined, spec: OpenApiSpec): JsonSchema | undefined {
  let current = schema;
  for (let depth = 0; current?.$ref && depth < 10; depth++) {
    const name = current.$ref.replace("#/components/schemas/", "");
    current = (spec.components as { schemas: Record<string, JsonSchema> }).schemas[name];
  }
  return current;
}

/** A value the parameter's schema allows, as query text. */
function validQueryValue(schema: JsonSchema | undefined, spec: OpenApiSpec): fc.Arbitrary<string> {
  const s = resolved(schema, spec);
  if (s?.enum) return fc.constantFrom(...s.enum.map(String));
  if (s?.anyOf) return fc.oneof(...s.anyOf.map((option) => validQueryValue(option, spec)));
  const type = Array.isArray(s?.type) ? s.type[0] : s?.type;
  if (type === "integer" || type === "number")
    return fc.integer({ min: s?.minimum ?? -5, max: Math.min(s?.maximum ?? 1000, 1000) }).map(String);
  if (type === "boolean") return fc.constantFrom("true", "false");
  if (type === "array") return validQueryValue(s?.items, spec);
  return fc.string({ maxLength: 12 });
}

/** Text that may break a parameter: empty, huge, a NUL, a number where words go, markup. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "-1", "0", "1e309", "null", "[]", "%", "\u0000", "../..", "<script>", "a".repeat(5000)),
);

/** Replaces or removes one member of a JSON object, or the whole value, to make it (probably) invalid. */
function mutated(value: unknown): fc.Arbitrary<unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fc.jsonValue();
  const keys = Object.keys(value);
  if (keys.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 3 });
  return fc
    .record({ key: fc.constantFrom(...keys), replacement: fc.option(fc.jsonValue()) })
    .map(({ key, replacement }) => {
      const copy: Record<string, unknown> = { ...value };
      if (replacement === null) delete copy[key];
      else copy[key] = replacement;
      return copy;
    });
}

/** A valid body most of the time (as the sampler builds it), else a mutated or random one. */
function bodyOf(schema: object | undefined, spec: OpenApiSpec): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  const full = sample(schema, { skipReadOnly: true, quiet: true }, spec);
  const minimal = sample(schema, { skipNonRequired: true, skipReadOnly: true, quiet: true }, spec);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(full) },
    { weight: 3, arbitrary: fc.constant(minimal) },
    { weight: 3, arbitrary: mutated(full) },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
}

/**
 * Requests over the operations: path parameters from `ids` (real resources, by parameter name), now
 * and then from `foreignIds` (another organization's) or unknown, query parameters valid or hostile,
 * bodies valid or broken, sent by any of the senders.
 */
export function fuzzRequests(
  operations: readonly FuzzOperation[],
  spec: OpenApiSpec,
  ids: Readonly<Record<string, readonly string[]>>,
  foreignIds: Readonly<Record<string, readonly string[]>>,
): fc.Arbitrary<FuzzRequest> {
  const byOperation = operations.map((operation) => {
    const pathValues = operation.parameters
      .filter((p) => p.in === "path")
      .map((p) =>
        fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...(ids[p.name] ?? [`unknown-${p.name}`])) },
          { weight: 1, arbitrary: fc.constantFrom(...(foreignIds[p.name] ?? [`unknown-${p.name}`])) },
          { weight: 1, arbitrary: hostileText.filter((text) => text !== "") },
        ),
      );
    const queryValues = operation.parameters
      .filter((p) => p.in === "query")
      .map((p) =>
        fc.option(
          fc
            .oneof(
              { weight: 4, arbitrary: validQueryValue(p.schema, spec) },
              { weight: 1, arbitrary: hostileText },
            )
            .map((value): [string, string] => [p.name, value]),
          { freq: 2 },
        ),
      );
    return fc
      .record({
        path: fc.tuple(...pathValues),
        query: fc.tuple(...queryValues),
        body: bodyOf(operation.bodySchema, spec),
        sender: fc.constantFrom<Sender>("admin", "admin", "admin", "reader", "none"),
      })
      .map(({ path, query, body, sender }): FuzzRequest => {
        let i = 0;
        const filled = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(path[i++] ?? ""));
        const params = new URLSearchParams(query.filter((entry) => entry !== null));
        const search = params.size > 0 ? `?${params}` : "";
        return {
          operationId: operation.operationId,
          method: operation.method,
          url: `${filled}${search}`,
          body,
          sender,
        };
      });
  });
  return fc.oneof(...byOperation);
}
