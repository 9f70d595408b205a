import { STATUS_TYPES } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingOperations } from "./areas.js";
import { loadApiSpec } from "./spec.js";
import { createTestApp, type TestApp, type TestUser } from "./testing/harness.js";

interface Operation {
  operationId: string;
  parameters?: Array<{ in: string; required?: boolean } | { $ref: string }>;
  requestBody?: { required?: boolean };
}

const spec = loadApiSpec();
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  (["get", "post", "put", "patch", "delete"] as const).flatMap((method) => {
    const operation = item[method] as Operation | undefined;
    return operation ? [{ method, path, operation }] : [];
  }),
);
const pending = new Set<string>(pendingOperations);

let t: TestApp;
let me: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  me = await t.user();
});
afterAll(() => t.close());

describe("routing", () => {
  it("reports how many operations still answer 501", () => {
    const implemented = operations.length - pending.size;
    console.info(
      `${implemented} of ${operations.length} operations implemented; ${pending.size} answer 501.`,
    );
    expect(operations.every(({ operation }) => typeof operation.operationId === "string")).toBe(true);
    expect([...pending].every((id) => operations.some(({ operation }) => operation.operationId === id))).toBe(
      true,
    );
  });

  it.each(operations)("routes $method $path", async ({ method, path, operation }) => {
    const url = path.replace(/\{[^}]+\}/g, "x");
    const res = await t.request[method](url)
      .set(me.auth)
      .send(operation.requestBody ? {} : undefined);
    expect(res.status).not.toBe(405);
    expect(res.body?.error?.message).not.toBe("No such route.");
    if (!pending.has(operation.operationId)) {
      expect(res.status).not.toBe(501);
      return;
    }
    const needsInput =
      operation.requestBody?.required ||
      (operation.parameters ?? []).some((p) => "in" in p && p.in === "query" && p.required);
    expect(needsInput ? [400, 501] : [501]).toContain(res.status);
    expect(res.body).toEqual({
      error: { code: res.status, type: STATUS_TYPES[res.status], message: expect.any(String) },
    });
  });
});
