import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCollection, buildSpace } from "../testing/factories.js";
import { joinOrganization } from "../testing/fixtures.js";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  ({ t, organizationId, admin, reader, outsider } = await createOrganizationScenario());
});
afterAll(() => t.close());

const ids = (body: { items: Array<{ id: string }> }) => body.items.map((item) => item.id);

describe("GET /v1/orgs/{organizationId}/collections", () => {
  it("lists nested collections by default and only top-level ones with nested=false", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const top = await buildCollection(t, { organization_id: org });
    const child = await buildCollection(t, { organization_id: org, parent_id: top.id });
    const all = await t.request.get(`/v1/orgs/${org}/collections`).set(owner.auth).expect(200);
    expect(ids(all.body)).toEqual([top.id, child.id]);
    expect(all.body.count).toBe(2);
    const topOnly = await t.request
      .get(`/v1/orgs/${org}/collections?nested=false`)
      .set(owner.auth)
      .expect(200);
    expect(ids(topOnly.body)).toEqual([top.id]);
  });

  it("answers 404 and 400", async () => {
    await t.request.get(`/v1/orgs/${organizationId}/collections`).set(outsider.auth).expect(404);
    await t.request.get(`/v1/orgs/${organizationId}/collections?nested=maybe`).set(admin.auth).expect(400);
  });
});

describe("POST /v1/orgs/{organizationId}/collections", () => {
  it("creates a collection, nested when a parent is given", async () => {
    const parent = await t.request
      .post(`/v1/orgs/${organizationId}/collections`)
      .set(admin.auth)
      .send({ title: "Engineering" })
      .expect(201);
    expect(parent.body).toMatchObject({
      object: "collection",
      title: "Engineering",
      organization: organizationId,
    });
    expect(parent.headers.location).toBe(parent.body.urls.location);
    const child = await t.request
      .post(`/v1/orgs/${organizationId}/collections`)
      .set(admin.auth)
      .send({ title: "Backend", parent: parent.body.id })
      .expect(201);
    expect(child.body.parent).toBe(parent.body.id);
    // GitBook's client may send no body: a collection with the default title.
    const bare = await t.request.post(`/v1/orgs/${organizationId}/collections`).set(admin.auth).expect(201);
    expect(bare.body).toMatchObject({ object: "collection", organization: organizationId });
  });

  it("answers 403, 404 and 400", async () => {
    await t.request.post(`/v1/orgs/${organizationId}/collections`).set(reader.auth).send({}).expect(403);
    await t.request.post(`/v1/orgs/${organizationId}/collections`).set(outsider.auth).send({}).expect(404);
    await t.request
      .post(`/v1/orgs/${organizationId}/collections`)
      .set(admin.auth)
      .send({ title: "t".repeat(51) })
      .expect(400);
    await t.request
      .post(`/v1/orgs/${organizationId}/collections`)
      .set(admin.auth)
      .send({ parent: "nope" })
      .expect(400);
  });
});

describe("GET /v1/collections/{collectionId}", () => {
  it("returns the collection with the caller's permissions", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId, title: "Docs" });
    const res = await t.request.get(`/v1/collections/${collection.id}`).set(reader.auth).expect(200);
    expect(res.body).toMatchObject({
      id: collection.id,
      title: "Docs",
      defaultLevel: "read",
      permissions: { view: true, admin: false, create: false, viewInviteLinks: false },
    });
  });

  it("answers 404 and 400", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    await t.request.get(`/v1/collections/${collection.id}`).set(outsider.auth).expect(404);
    await t.request.get(`/v1/collections/${collection.id}?x=1`).set(admin.auth).expect(400);
  });
});

describe("PATCH /v1/collections/{collectionId}", () => {
  it("updates title, description and defaultLevel", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const res = await t.request
      .patch(`/v1/collections/${collection.id}`)
      .set(admin.auth)
      .send({ title: "Renamed", description: "About it", defaultLevel: "comment" })
      .expect(200);
    expect(res.body).toMatchObject({ title: "Renamed", description: "About it", defaultLevel: "comment" });
  });

  it("removes the description when given null, and keeps it when left out", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const url = `/v1/collections/${collection.id}`;
    await t.request.patch(url).set(admin.auth).send({ description: "About it" }).expect(200);
    await t.request.patch(url).set(admin.auth).send({ title: "Kept description" }).expect(200);
    expect((await t.request.get(url).set(admin.auth).expect(200)).body.description).toBe("About it");
    const cleared = await t.request.patch(url).set(admin.auth).send({ description: null }).expect(200);
    expect(cleared.body).not.toHaveProperty("description");
    const read = await t.request.get(url).set(admin.auth).expect(200);
    expect(read.body).not.toHaveProperty("description");
    expect(read.body.title).toBe("Kept description");
  });

  it("answers 403, 404 and 400, changing nothing", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId, title: "Kept" });
    await t.request
      .patch(`/v1/collections/${collection.id}`)
      .set(reader.auth)
      .send({ title: "x" })
      .expect(403);
    await t.request
      .patch(`/v1/collections/${collection.id}`)
      .set(outsider.auth)
      .send({ title: "x" })
      .expect(404);
    await t.request
      .patch(`/v1/collections/${collection.id}`)
      .set(admin.auth)
      .send({ description: "d".repeat(101) })
      .expect(400);
    const res = await t.request.get(`/v1/collections/${collection.id}`).set(admin.auth);
    expect(res.body.title).toBe("Kept");
  });
});

describe("DELETE /v1/collections/{collectionId}", () => {
  it("deletes the collection and moves its children up to its parent", async () => {
    const parent = await buildCollection(t, { organization_id: organizationId });
    const doomed = await buildCollection(t, { organization_id: organizationId, parent_id: parent.id });
    const child = await buildCollection(t, { organization_id: organizationId, parent_id: doomed.id });
    const space = await buildSpace(t, { organization_id: organizationId, parent_id: doomed.id });
    await t.request.delete(`/v1/collections/${doomed.id}`).set(admin.auth).expect(204);
    await t.request.get(`/v1/collections/${doomed.id}`).set(admin.auth).expect(404);
    const movedChild = await t.request.get(`/v1/collections/${child.id}`).set(admin.auth).expect(200);
    expect(movedChild.body.parent).toBe(parent.id);
    const movedSpace = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(movedSpace.body.parent).toBe(parent.id);
  });

  it("answers 403 and 404", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    await t.request.delete(`/v1/collections/${collection.id}`).set(reader.auth).expect(403);
    await t.request.delete(`/v1/collections/${collection.id}`).set(outsider.auth).expect(404);
    await t.request.get(`/v1/collections/${collection.id}`).set(admin.auth).expect(200);
  });
});

describe("GET /v1/collections/{collectionId}/spaces", () => {
  it("lists the collection's spaces in order, page by page, without deleted ones", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const spaces = [];
    for (let i = 0; i < 3; i++)
      spaces.push(await buildSpace(t, { organization_id: organizationId, parent_id: collection.id }));
    await buildSpace(t, {
      organization_id: organizationId,
      parent_id: collection.id,
      deleted_at: "2026-01-01T00:00:00.000Z",
    });
    const first = await t.request
      .get(`/v1/collections/${collection.id}/spaces?limit=2`)
      .set(reader.auth)
      .expect(200);
    expect(first.body.count).toBe(3);
    const second = await t.request
      .get(`/v1/collections/${collection.id}/spaces`)
      .query({ limit: 2, page: first.body.next.page })
      .set(reader.auth)
      .expect(200);
    expect([...ids(first.body), ...ids(second.body)]).toEqual(spaces.map((s) => s.id));
  });

  it("answers 404 and 400", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    await t.request.get(`/v1/collections/${collection.id}/spaces`).set(outsider.auth).expect(404);
    await t.request.get(`/v1/collections/${collection.id}/spaces?limit=1001`).set(admin.auth).expect(400);
  });
});

describe("POST /v1/collections/{collectionId}/move", () => {
  it("nests a collection and orders it among spaces and collections", async () => {
    const target = await buildCollection(t, { organization_id: organizationId });
    const space = await buildSpace(t, { organization_id: organizationId, parent_id: target.id });
    const moving = await buildCollection(t, { organization_id: organizationId });
    const res = await t.request
      .post(`/v1/collections/${moving.id}/move`)
      .set(admin.auth)
      .send({ parent: target.id, position: { before: { type: "space", space: space.id } } })
      .expect(200);
    expect(res.body.parent).toBe(target.id);
    const positions = await t.db
      .selectFrom("collections")
      .select("position")
      .where("id", "=", moving.id)
      .union(t.db.selectFrom("spaces").select("position").where("id", "=", space.id))
      .execute();
    expect(positions.map((p) => p.position).sort()).toEqual([0, 1]);
    const placed = await t.db
      .selectFrom("collections")
      .select("position")
      .where("id", "=", moving.id)
      .executeTakeFirst();
    expect(placed?.position).toBe(0);
  });

  it("refuses to move a collection into its own descendant (400) and an empty move (409)", async () => {
    const outer = await buildCollection(t, { organization_id: organizationId });
    const inner = await buildCollection(t, { organization_id: organizationId, parent_id: outer.id });
    await t.request
      .post(`/v1/collections/${outer.id}/move`)
      .set(admin.auth)
      .send({ parent: inner.id })
      .expect(400);
    await t.request
      .post(`/v1/collections/${outer.id}/move`)
      .set(admin.auth)
      .send({ parent: outer.id })
      .expect(400);
    await t.request.post(`/v1/collections/${outer.id}/move`).set(admin.auth).send({}).expect(409);
  });

  it("answers 403 and 404", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    await t.request
      .post(`/v1/collections/${collection.id}/move`)
      .set(reader.auth)
      .send({ parent: null })
      .expect(403);
    await t.request
      .post(`/v1/collections/${collection.id}/move`)
      .set(outsider.auth)
      .send({ parent: null })
      .expect(404);
  });
});

describe("POST /v1/collections/{collectionId}/transfer", () => {
  it("transfers the collection with its nested collections and spaces", async () => {
    const target = await t.organization();
    await joinOrganization(t, target.organizationId, admin, "admin");
    const parent = await buildCollection(t, { organization_id: organizationId });
    const collection = await buildCollection(t, { organization_id: organizationId, parent_id: parent.id });
    const nested = await buildCollection(t, { organization_id: organizationId, parent_id: collection.id });
    const space = await buildSpace(t, { organization_id: organizationId, parent_id: nested.id });
    const res = await t.request
      .post(`/v1/collections/${collection.id}/transfer`)
      .set(admin.auth)
      .send({ organization: target.organizationId })
      .expect(200);
    expect(res.body).toMatchObject({ organization: target.organizationId });
    expect(res.body.parent).toBeUndefined();
    const movedNested = await t.request
      .get(`/v1/collections/${nested.id}`)
      .set(target.admin.auth)
      .expect(200);
    expect(movedNested.body.organization).toBe(target.organizationId);
    const movedSpace = await t.request.get(`/v1/spaces/${space.id}`).set(target.admin.auth).expect(200);
    expect(movedSpace.body.organization).toBe(target.organizationId);
  });

  it("answers 403, 404 for a foreign target, 409 for the same organization, 400 without a target", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const foreign = await t.organization();
    await t.request
      .post(`/v1/collections/${collection.id}/transfer`)
      .set(reader.auth)
      .send({ organization: foreign.organizationId })
      .expect(403);
    await t.request
      .post(`/v1/collections/${collection.id}/transfer`)
      .set(admin.auth)
      .send({ organization: foreign.organizationId })
      .expect(404);
    await t.request
      .post(`/v1/collections/${collection.id}/transfer`)
      .set(admin.auth)
      .send({ organization: organizationId })
      .expect(409);
    await t.request.post(`/v1/collections/${collection.id}/transfer`).set(admin.auth).send({}).expect(400);
  });
});

describe("corrections", () => {
  it("never lets a defaultLevel move content out of the organization (transfer needs an organization admin)", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const member = await t.user({ organizationId: org, role: "read" });
    const own = await t.organization();
    await joinOrganization(t, own.organizationId, member, "admin");
    const collection = await buildCollection(t, { organization_id: org, default_level: "admin" });
    const space = await buildSpace(t, { organization_id: org, parent_id: collection.id });
    await t.request
      .post(`/v1/collections/${collection.id}/transfer`)
      .set(member.auth)
      .send({ organization: own.organizationId })
      .expect(403);
    const open = await buildSpace(t, { organization_id: org, default_level: "admin" });
    await t.request
      .post(`/v1/spaces/${open.id}/transfer`)
      .set(member.auth)
      .send({ organization: own.organizationId })
      .expect(403);
    const stayed = await t.request.get(`/v1/spaces/${space.id}`).set(owner.auth).expect(200);
    expect(stayed.body.organization).toBe(org);
    const still = await t.request.get(`/v1/collections/${collection.id}`).set(owner.auth).expect(200);
    expect(still.body.organization).toBe(org);
  });

  it("answers 400 for a forged cursor whose values have the wrong types", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const forged = Buffer.from(JSON.stringify(["not a position", "x"])).toString("base64url");
    const res = await t.request
      .get(`/v1/collections/${collection.id}/spaces?page=${forged}`)
      .set(admin.auth)
      .expect(400);
    expect(res.body.error.message).toContain("cursor");
    await t.request.get(`/v1/collections/${collection.id}/spaces?page=`).set(admin.auth).expect(400);
  });

  it("keeps updatedAt when a PATCH changes nothing", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    t.clock.advance(1000);
    const res = await t.request
      .patch(`/v1/collections/${collection.id}`)
      .set(admin.auth)
      .send({})
      .expect(200);
    const stored = await t.db
      .selectFrom("collections")
      .select("updated_at")
      .where("id", "=", collection.id)
      .executeTakeFirstOrThrow();
    expect(stored.updated_at).toBe(collection.updated_at);
    expect(res.body.title).toBe(collection.title);
  });
});

describe("GitBook's defaultLevel: inherit", () => {
  it("follows the parent collection's level as it changes and as content moves; read at the top level", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const member = await t.user();
    await joinOrganization(t, org, member, "read");
    const patch = (path: string, body: object, status = 200) =>
      t.request.patch(path).set(owner.auth).send(body).expect(status);
    /** The member's standing on a space: the level they hold through its default level. */
    const standing = async (spaceId: string) => {
      const { permissions } = (await t.request.get(`/v1/spaces/${spaceId}`).set(member.auth).expect(200))
        .body;
      return permissions.edit ? "edit" : permissions.comment ? "comment" : "read";
    };
    const outer = await buildCollection(t, { organization_id: org });
    const inner = await buildCollection(t, { organization_id: org, parent_id: outer.id });
    const space = await buildSpace(t, { organization_id: org, parent_id: inner.id });

    await patch(`/v1/collections/${outer.id}`, { defaultLevel: "edit" });
    expect((await patch(`/v1/collections/${inner.id}`, { defaultLevel: "inherit" })).body.defaultLevel).toBe(
      "inherit",
    );
    expect((await patch(`/v1/spaces/${space.id}`, { defaultLevel: "inherit" })).body.defaultLevel).toBe(
      "inherit",
    );
    expect(
      (await t.request.get(`/v1/spaces/${space.id}`).set(owner.auth).expect(200)).body.defaultLevel,
    ).toBe("inherit");
    expect(await standing(space.id)).toBe("edit");

    // The outer collection's level flows down through the inheriting one.
    await patch(`/v1/collections/${outer.id}`, { defaultLevel: "comment" });
    expect(await standing(space.id)).toBe("comment");

    // Moved to the top level, the space inherits the organization's floor.
    await t.request.post(`/v1/spaces/${space.id}/move`).set(owner.auth).send({ parent: null }).expect(200);
    expect(await standing(space.id)).toBe("read");
    await t.request
      .post(`/v1/spaces/${space.id}/move`)
      .set(owner.auth)
      .send({ parent: inner.id })
      .expect(200);
    expect(await standing(space.id)).toBe("comment");

    // Deleting the outer collection brings the inner one to the top level, where it inherits `read`.
    await t.request.delete(`/v1/collections/${outer.id}`).set(owner.auth).expect(204);
    expect(await standing(space.id)).toBe("read");

    // A role set on the space stops the inheritance.
    expect((await patch(`/v1/spaces/${space.id}`, { defaultLevel: "edit" })).body.defaultLevel).toBe("edit");
    await patch(`/v1/collections/${inner.id}`, { defaultLevel: "comment" });
    expect(await standing(space.id)).toBe("edit");
  });

  it("refuses a level that is neither a role nor inherit, changing nothing", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const collection = await buildCollection(t, { organization_id: org });
    const space = await buildSpace(t, { organization_id: org });
    for (const level of [null, "guest", "owner"]) {
      await t.request
        .patch(`/v1/collections/${collection.id}`)
        .set(owner.auth)
        .send({ defaultLevel: level })
        .expect(400);
      await t.request
        .patch(`/v1/spaces/${space.id}`)
        .set(owner.auth)
        .send({ defaultLevel: level })
        .expect(400);
    }
    expect(
      (await t.request.get(`/v1/spaces/${space.id}`).set(owner.auth).expect(200)).body.defaultLevel,
    ).toBe("read");
    expect(
      (await t.request.get(`/v1/collections/${collection.id}`).set(owner.auth).expect(200)).body.defaultLevel,
    ).toBe("read");
  });
});
