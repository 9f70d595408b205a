import type { OperationId } from "@quire/api-types";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import type { OpenApiSpec } from "../spec.js";
import { badRequest } from "./errors.js";

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
  /** See `CompiledOperation.restOfPath`. */
  "x-quire-rest-of-path"?: boolean;
}

interface OperationObject {
  operationId?: string;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: JsonSchema }> }>;
  security?: Array<Record<string, string[]>>;
}

/** What the dispatcher needs of one operation, compiled once at start-up. */
export interface CompiledOperation {
  operationId: OperationId;
  method: HttpMethod;
  /** The contract's path, e.g. `/v1/spaces/{spaceId}`. */
  path: string;
  /** Names of the path's parameters, in the order they appear. */
  pathParameters: string[];
  /**
   * The last path parameter takes the rest of the path, slashes included: the contract marks it
   * `x-quire-rest-of-path` (a page's path, which GitBook's clients send unencoded).
   */
  restOfPath: boolean;
  /**
   * Undefined when the operation takes no body. `formFiles` names the file parts of a multipart form
   * body (a JSON body has none).
   */
  body?: { required: boolean; formFiles?: string[] };
  /** A read of one resource: its answer carries an `ETag`, which a write's `If-Match` can name. */
  readsOneResource: boolean;
  /** Checks and coerces path and query parameters (strings to numbers and booleans, defaults applied). */
  validateParameters(path: Record<string, string>, query: Record<string, unknown>): void;
  validateBody(body: unknown): void;
  /** Undefined when response validation is off. */
  validateResponse?(status: number, body: unknown): void;
}

const SCHEMA_ID = "quire:openapi";

/** int32, int64 and double are OpenAPI's own formats; ajv-formats knows the JSON Schema ones. */
function newAjv(options: { coerceTypes?: "array"; useDefaults?: boolean }, spec: OpenApiSpec): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, ...options });
  addFormatsPlugin.default(ajv, ["date-time", "uri", "email"]);
  ajv.addFormat("int32", { type: "number", validate: (n) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
  ajv.addFormat("int64", { type: "number", validate: Number.isInteger });
  ajv.addFormat("double", { type: "number", validate: () => true });
  ajv.addSchema({ $id: SCHEMA_ID, components: spec.components } as JsonSchema);
  return ajv;
}

/** `#/components/schemas/X` references, made absolute so that Ajv finds them in the added contract. */
function absoluteRefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === "$ref" && typeof value === "string" && value.startsWith("#/") ? `${SCHEMA_ID}${value}` : value,
  );
}

function describeError(where: string, error: ErrorObject | undefined): string {
  if (!error) return `${where} is invalid`;
  const path = `${where}${error.instancePath}`;
  const extra = error.keyword === "additionalProperties" ? ` '${error.params.additionalProperty}'` : "";
  const allowed = error.keyword === "enum" ? `: ${(error.params.allowedValues as unknown[]).join(", ")}` : "";
  return `${path} ${error.message ?? "is invalid"}${extra}${allowed}`;
}

function check(validate: ValidateFunction, value: unknown, where: string): void {
  if (!validate(value)) throw badRequest(describeError(where, validate.errors?.[0]));
}

function resolveParameter(spec: OpenApiSpec, parameter: Parameter | { $ref: string }): Parameter {
  if (!("$ref" in parameter)) return parameter;
  const name = parameter.$ref.split("/").at(-1) ?? "";
  const components = spec.components as { parameters?: Record<string, Parameter> } | undefined;
  const resolved = components?.parameters?.[name];
  if (!resolved) throw new Error(`The contract refers to a missing parameter ${parameter.$ref}`);
  return resolved;
}

function objectSchema(parameters: Parameter[]): JsonSchema {
  return {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema ?? {}])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

/**
 * Text no storage keeps as given: a NUL character (PostgreSQL refuses it) or a lone UTF-16 surrogate
 * (UTF-8 cannot hold one: it would read back as U+FFFD). Input holding either is refused before any
 * storage sees it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL character is what it looks for.
const UNSTORABLE = /[\u0000\p{Cs}]/u;
export const UNSTORABLE_TEXT = "a NUL character or a lone surrogate";

/**
 * How deeply a request body may nest its arrays and objects. The validators and handlers walk a body
 * by recursion; past this a body could exhaust the stack. GitBook's deepest documents the content
 * engine accepts nest about half as deep.
 */
export const MAX_BODY_DEPTH = 1_000;

/** Whether `value` nests arrays and objects deeper than `limit`, found without recursion. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    if (typeof entry.value !== "object" || entry.value === null) continue;
    if (entry.depth >= limit) return true;
    for (const item of Object.values(entry.value)) stack.push({ value: item, depth: entry.depth + 1 });
  }
  return false;
}

export function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === "string") return UNSTORABLE.test(value);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, item]) => UNSTORABLE.test(key) || holdsUnstorableText(item));
}

function assertStorable(values: Record<string, unknown>, where: string): void {
  for (const name in values) {
    if (holdsUnstorableText(values[name]))
      throw badRequest(`${where}/${name} must not contain ${UNSTORABLE_TEXT}`);
  }
}

/**
 * Compiles the request checks of every operation of the contract once, at start-up (and the
 * response checks on first use, when asked for), so that a request costs one lookup and the
 * validators of its own operation, however many operations the contract has.
 */
export function compileContract(
  spec: OpenApiSpec,
  options: { validateResponses: boolean },
): readonly CompiledOperation[] {
  const key = options.validateResponses ? "checked" : "unchecked";
  let compiled = compiledContracts.get(spec);
  if (!compiled) {
    compiled = {};
    compiledContracts.set(spec, compiled);
  }
  compiled[key] ??= compileOperations(spec, options);
  return compiled[key];
}

/** Compiling takes half a second; apps made from one contract object (tests make many) share it. */
const compiledContracts = new WeakMap<
  OpenApiSpec,
  { checked?: CompiledOperation[]; unchecked?: CompiledOperation[] }
>();

function compileOperations(spec: OpenApiSpec, options: { validateResponses: boolean }): CompiledOperation[] {
  const parameterAjv = newAjv({ coerceTypes: "array", useDefaults: true }, spec);
  const bodyAjv = newAjv({}, spec);
  const globalSecurity = (spec as { security?: OperationObject["security"] }).security ?? [];
  const operations: CompiledOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation?.operationId) continue;
      const parameters = (operation.parameters ?? []).map((p) => resolveParameter(spec, p));
      const pathParameters = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
      const validatePath = parameterAjv.compile(
        absoluteRefs(objectSchema(parameters.filter((p) => p.in === "path"))) as JsonSchema,
      );
      const validateQuery = parameterAjv.compile(
        absoluteRefs(objectSchema(parameters.filter((p) => p.in === "query"))) as JsonSchema,
      );
      const bodySchema = operation.requestBody?.content["application/json"]?.schema;
      const formSchema = operation.requestBody?.content["multipart/form-data"]?.schema;
      const validateBody = bodySchema && bodyAjv.compile(absoluteRefs(bodySchema) as JsonSchema);
      // Every operation needs a bearer token today; one that does not would need a handler type
      // without a caller, so such a contract is refused at start-up rather than served wrongly.
      const security = operation.security ?? globalSecurity;
      if (!security.some((requirement) => "BearerAuth" in requirement))
        throw new Error(`The operation ${operation.operationId} does not require BearerAuth`);
      operations.push({
        operationId: operation.operationId as OperationId,
        method,
        path,
        pathParameters,
        restOfPath: parameters.some(
          (p) => p.in === "path" && p.name === pathParameters.at(-1) && p["x-quire-rest-of-path"] === true,
        ),
        readsOneResource: method === "get" && !answersPage(spec, operation),
        ...(operation.requestBody && {
          body: {
            required: operation.requestBody.required ?? false,
            ...(formSchema && { formFiles: Object.keys(resolveSchema(spec, formSchema).properties ?? {}) }),
          },
        }),
        validateParameters(pathValues, query) {
          assertStorable(pathValues, "path");
          assertStorable(query, "query");
          check(validatePath, pathValues, "path");
          check(validateQuery, query, "query");
        },
        validateBody(body) {
          if (validateBody && body !== undefined) check(validateBody, body, "body");
        },
        ...(options.validateResponses && {
          validateResponse: responseValidator(spec, bodyAjv, operation),
        }),
      });
    }
  }
  return operations;
}

type ObjectSchema = { $ref?: string; properties?: Record<string, unknown> };

/** A schema, or the named schema of the contract it refers to. */
function resolveSchema(spec: OpenApiSpec, schema: JsonSchema | undefined): ObjectSchema {
  const name = (schema as ObjectSchema | undefined)?.$ref?.split("/").at(-1);
  const resolved = name
    ? (spec.components as { schemas: Record<string, ObjectSchema> }).schemas[name]
    : (schema as ObjectSchema | undefined);
  return resolved ?? {};
}

/** Whether the operation's 200 answer is a page of a list (`items`), rather than one resource. */
function answersPage(spec: OpenApiSpec, operation: OperationObject): boolean {
  const schema = operation.responses?.["200"]?.content?.["application/json"]?.schema;
  return resolveSchema(spec, schema).properties?.items !== undefined;
}

/** Response checks for development and tests: a body the contract does not allow is a server bug. */
function responseValidator(spec: OpenApiSpec, ajv: Ajv2020, operation: OperationObject) {
  const compiled = new Map<string, ValidateFunction | null>();
  const schemaFor = (status: string) => {
    let response = operation.responses?.[status] ?? operation.responses?.default;
    if (response?.$ref) {
      const name = response.$ref.split("/").at(-1) ?? "";
      response = (spec.components as { responses?: Record<string, typeof response> }).responses?.[name];
    }
    return response;
  };
  return (status: number, body: unknown) => {
    const key = String(status);
    let validate = compiled.get(key);
    if (validate === undefined) {
      const response = schemaFor(key);
      if (!response)
        throw new Error(`Response does not match the contract: status ${status} is not declared`);
      const schema = response.content?.["application/json"]?.schema;
      validate = schema ? ajv.compile(absoluteRefs(schema) as JsonSchema) : null;
      compiled.set(key, validate);
    }
    if (validate === null) {
      if (body !== undefined) throw new Error("Response does not match the contract: it declares no body");
      return;
    }
    if (!validate(body)) {
      throw new Error(
        `Response does not match the contract: ${describeError("response", validate.errors?.[0])}`,
      );
    }
  };
}
