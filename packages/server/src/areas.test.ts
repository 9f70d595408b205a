import { describe, expect, it } from "vitest";
import { defineArea } from "./area.js";
import { areas, createHandlers, pendingOperations } from "./areas.js";
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
});
