import { describe, expect, it } from "vitest";
import { defineArea } from "./area.js";
import { areas, createHandlers, pendingOperations } from "./areas.js";
import { systemClock, timeOrderedIds } from "./context.js";
import { openDatabase } from "./db/database.js";
import { createFetcher, publicAddressesOnly } from "./net/fetch.js";
import { loadApiSpec } from "./spec.js";
import { testFileSettings } from "./testing/harness.js";
import { urlsFor } from "./urls.js";

const db = openDatabase({ location: ":memory:" });
const services = {
  db,
  clock: systemClock,
  ids: timeOrderedIds(),
  urls: urlsFor("http://quire.test"),
  now: () => systemClock.now().toISOString(),
  secretKey: "a test key of thirty-two characters!",
  files: testFileSettings(),
  fetcher: createFetcher(publicAddressesOnly),
};

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
