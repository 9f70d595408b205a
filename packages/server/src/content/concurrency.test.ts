import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCollection, buildSpace } from "../testing/factories.js";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";

/**
 * The same operations fired in parallel. On SQLite one write transaction runs at a time; on
 * PostgreSQL they interleave, which is where lost positions, deadlocks and cycles showed.
 */
let t: TestApp;
let organizationId: string;
let admin: TestUser;
beforeAll(async () => {
  ({ t, organizationId, admin } = await createOrganizationScenario());
});
afterAll(() => t.close());

const positionsUnder = async (parentId: string) => {
  const rows = await Promise.all(
    (["collections", "spaces"] as const).map((table) =>
      t.db.selectFrom(table).select("position").where("parent_id", "=", parentId).execute(),
    ),
  );
  return rows.flat().map((r) => r.position);
};

describe("concurrent changes to one content tree", () => {
  it("200 creates in one collection get 200 distinct positions", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.request
          .post(`/v1/orgs/${organizationId}/spaces`)
          .set(admin.auth)
          .send({ title: `S${i}`, parent: collection.id }),
      ),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
    const positions = await positionsUnder(collection.id);
    expect(positions).toHaveLength(200);
    expect(new Set(positions).size).toBe(200);
  });

  it("pairs of moves among the same siblings all succeed and keep positions unique", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const spaces = [];
    for (let i = 0; i < 6; i++)
      spaces.push(await buildSpace(t, { organization_id: organizationId, parent_id: collection.id }));
    const [first, second, third, fourth] = spaces as [
      (typeof spaces)[0],
      (typeof spaces)[0],
      (typeof spaces)[0],
      (typeof spaces)[0],
    ];
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all([
        t.request
          .post(`/v1/spaces/${first.id}/move`)
          .set(admin.auth)
          .send({ position: { after: { type: "space", space: fourth.id } } }),
        t.request
          .post(`/v1/spaces/${second.id}/move`)
          .set(admin.auth)
          .send({ position: { before: { type: "space", space: third.id } } }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
    }
    const positions = await positionsUnder(collection.id);
    expect(new Set(positions).size).toBe(6);
  });

  it("moving A into B and B into A at once never makes a cycle", async () => {
    for (let round = 0; round < 10; round++) {
      const a = await buildCollection(t, { organization_id: organizationId });
      const b = await buildCollection(t, { organization_id: organizationId });
      const answers = await Promise.all([
        t.request.post(`/v1/collections/${a.id}/move`).set(admin.auth).send({ parent: b.id }),
        t.request.post(`/v1/collections/${b.id}/move`).set(admin.auth).send({ parent: a.id }),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
      const parents = await t.db
        .selectFrom("collections")
        .select(["id", "parent_id"])
        .where("id", "in", [a.id, b.id])
        .execute();
      expect(parents.filter((c) => c.parent_id !== null)).toHaveLength(1);
    }
  });

  it("deleting a collection while spaces are created in it loses nothing and fails nothing", async () => {
    const parent = await buildCollection(t, { organization_id: organizationId });
    const doomed = await buildCollection(t, { organization_id: organizationId, parent_id: parent.id });
    const creates = Array.from({ length: 20 }, (_, i) =>
      t.request
        .post(`/v1/orgs/${organizationId}/spaces`)
        .set(admin.auth)
        .send({ title: `Racing ${i}`, parent: doomed.id }),
    );
    const [deleted, ...created] = await Promise.all([
      t.request.delete(`/v1/collections/${doomed.id}`).set(admin.auth),
      ...creates,
    ]);
    expect(deleted?.status).toBe(204);
    for (const answer of created) expect([201, 400]).toContain(answer.status);
    for (const answer of created.filter((a) => a.status === 201)) {
      const space = await t.request.get(`/v1/spaces/${answer.body.id}`).set(admin.auth).expect(200);
      expect(space.body.parent).toBe(parent.id);
    }
  });

  it("two organizations taking one hostname at once: one gets it, the other 409", async () => {
    const other = await t.organization();
    const [mine, theirs] = await Promise.all([
      t.request.patch(`/v1/orgs/${organizationId}`).set(admin.auth).send({ hostname: "contested" }),
      t.request
        .patch(`/v1/orgs/${other.organizationId}`)
        .set(other.admin.auth)
        .send({ hostname: "contested" }),
    ]);
    expect([mine.status, theirs.status].sort()).toEqual([200, 409]);
  });
});
