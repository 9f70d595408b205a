import { sample } from "openapi-sampler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingOperations } from "./areas.js";
import { HTTP_METHODS } from "./http/contract.js";
import { loadApiSpec } from "./spec.js";
import { buildNestedSpace } from "./testing/factories.js";
import { createTestApp, type TestApp, type TestUser } from "./testing/harness.js";

/**
 * Generated from the contract, so that every operation is covered from its first line: without a
 * token it answers 401, and with ids of another organization it answers 404, never the resource.
 * Operations still pending are left out until their area implements them.
 */
interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  schema: object;
}

interface OperationObject {
  operationId: string;
  parameters?: (ParameterObject | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
}

const spec = loadApiSpec();
const pending = new Set<string>(pendingOperations);
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  HTTP_METHODS.flatMap((method) => {
    const operation = item[method] as OperationObject | undefined;
    return operation && !pending.has(operation.operationId) ? [{ method, path, operation }] : [];
  }),
);
/**
 * Paths that name a resource. An email domain names none: a domain whose organizations the caller may
 * not see lists none (200), as GitBook's contract has it.
 */
const namesResource = ({ path }: { path: string }) => path.includes("{") && !path.includes("{emailDomain}");

/** A body the contract accepts, so that the answer is about the resource, not the input. */
const validBody = (operation: OperationObject) => {
  const schema = operation.requestBody?.content["application/json"]?.schema;
  return schema
    ? sample(schema, { skipNonRequired: true, skipReadOnly: true, quiet: true }, spec)
    : undefined;
};

/** The operation's required query parameters, with values the contract accepts. */
const requiredQuery = (operation: OperationObject) => {
  const query = new URLSearchParams();
  for (const reference of operation.parameters ?? []) {
    const parameter = (
      "$ref" in reference
        ? (spec.components as { parameters: Record<string, ParameterObject> }).parameters[
            reference.$ref.split("/").at(-1) as string
          ]
        : reference
    ) as ParameterObject;
    if (parameter.in === "query" && parameter.required)
      query.set(parameter.name, String(sample(parameter.schema, { quiet: true }, spec)));
  }
  const text = query.toString();
  return text ? `?${text}` : "";
};

let t: TestApp;
let caller: TestUser;
/** Ids of resources of an organization the caller is not in, by path parameter name. */
let foreignIds: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin: caller } = await t.organization());
  const other = await t.organization();
  const { collection, space } = await buildNestedSpace(t, { organization_id: other.organizationId });
  foreignIds = {
    organizationId: other.organizationId,
    collectionId: collection.id,
    spaceId: space.id,
    userId: other.admin.user.id,
  };
});
afterAll(() => t.close());

const urlFor = (path: string, operation: OperationObject) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => foreignIds[name] ?? `unknown-${name}`) +
  requiredQuery(operation);

describe("every implemented operation", () => {
  it.each(operations)("$method $path answers 401 without a token", async ({ method, path, operation }) => {
    const res = await t.request[method](urlFor(path, operation)).send(validBody(operation) as object);
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(res.body).toEqual({ error: { code: 401, type: "unauthorized", message: expect.any(String) } });
  });

  it.each(operations.filter(namesResource))(
    "$method $path answers 404 for ids of another organization",
    async ({ method, path, operation }) => {
      const res = await t.request[method](urlFor(path, operation))
        .set(caller.auth)
        .send(validBody(operation) as object);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, type: "not_found", message: expect.any(String) } });
    },
  );
});
