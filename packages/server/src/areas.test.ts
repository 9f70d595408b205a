import { describe, expect, it } from "vitest";
import { accessRule, anyCaller, defineArea } from "./area.js";
import { areas, createHandlers, pendingOperations } from "./areas.js";
import type { Caller } from "./auth/caller.js";
import { ApiError } from "./http/errors.js";
import { ok } from "./http/results.js";
import { loadApiSpec } from "./spec.js";
import { inspectionServices } from "./testing/harness.js";

const services = inspectionServices();

describe("areas", () => {
  it("give every operation of the contract exactly one handler", () => {
    const operationIds = Object.values(loadApiSpec().paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    const handlers = createHandlers(services);
    expect(Object.keys(handlers).sort()).toEqual([...operationIds].sort());
    expect(new Set(areas.map((area) => area.name)).size).toBe(areas.length);
    expect(pendingOperations.every((id) => operationIds.includes(id))).toBe(true);
  });

  it("refuse to start when two areas claim one operation", () => {
    const first = defineArea({ name: "first", pending: ["addMemberToOrganizationTeamById"] });
    const second = defineArea({ name: "second", pending: ["addMemberToOrganizationTeamById"] });
    expect(() => createHandlers(services, [first, second])).toThrow(
      "The operation addMemberToOrganizationTeamById belongs to both first and second",
    );
  });

  it("declare an access rule for every operation they handle", () => {
    for (const area of areas) {
      for (const id of Object.keys(area.handlers(services)))
        expect(area.access[id as keyof typeof area.access]?.requires, `${area.name} ${id}`).toMatch(/\S/);
    }
  });
});

describe("a declared access rule", () => {
  const caller = { user: { id: "u1" } } as Caller;
  const input = { path: { organizationId: "o1" }, query: {}, body: undefined, caller } as never;
  const loaded: string[] = [];
  const onProbe = (allows: boolean) =>
    accessRule(
      "organization",
      "probe this organization",
      async (_services, who, path) => {
        loaded.push(`${who.user.id} ${path.organizationId}`);
        return { role: allows ? "admin" : "read" };
      },
      ({ role }) => role === "admin",
    );

  it("is checked before the handler, which receives what it loaded", async () => {
    const area = defineArea({
      name: "probe",
      access: { getOrganizationById: onProbe(true) },
      handlers: () => ({ getOrganizationById: (_input, { role }) => ok({ role } as never) }),
    });
    const answer = await area.handlers(services).getOrganizationById(input);
    expect(answer).toEqual({ status: 200, body: { role: "admin" } });
    expect(loaded).toEqual(["u1 o1"]);
  });

  it("answers 403 naming the action, and the handler never runs", async () => {
    let ran = false;
    const area = defineArea({
      name: "probe",
      access: { getOrganizationById: onProbe(false) },
      handlers: () => ({
        getOrganizationById: () => {
          ran = true;
          return ok({} as never);
        },
      }),
    });
    const refusal = await Promise.resolve(area.handlers(services).getOrganizationById(input)).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 403,
      message: "Your role does not allow you to probe this organization.",
    });
    expect(ran).toBe(false);
  });

  it("must exist for each handler: an area handling an operation without one does not start", () => {
    const area = defineArea({
      name: "probe",
      access: { getAuthenticatedUser: anyCaller },
      handlers: () =>
        ({
          getAuthenticatedUser: () => ok({} as never),
          getOrganizationById: () => ok({} as never),
        }) as never,
    });
    expect(() => area.handlers(services)).toThrow(
      "probe handles getOrganizationById but declares no access rule for it",
    );
  });
});
