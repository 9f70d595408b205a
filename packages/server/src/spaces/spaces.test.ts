import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCollection, buildNestedSpace, buildSpace } from "../testing/factories.js";
import { buildOrganization, joinOrganization } from "../testing/fixtures.js";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";
import { DELETED_SPACE_RETENTION_MS } from "./store.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  ({ t, organizationId, admin, reader, outsider } = await createOrganizationScenario());
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;

describe("POST /v1/orgs/{organizationId}/spaces", () => {
  it("creates a space at the end of the top level, with its Location", async () => {
    const res = await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ title: "Handbook", emoji: "📘" })
      .expect(201);
    expect(res.body).toMatchObject({
      object: "space",
      title: "Handbook",
      emoji: "📘",
      organization: organizationId,
      visibility: "private",
      editMode: "live",
      changeRequests: 0,
      permissions: { admin: true, edit: true },
    });
    expect(res.headers.location).toBe(`http://quire.test/v1/spaces/${res.body.id}`);
    await t.request.get(`/v1/spaces/${res.body.id}`).set(admin.auth).expect(200);
  });

  it("takes no body, as GitBook's createSpace, and a language", async () => {
    const bare = await t.request.post(`/v1/orgs/${organizationId}/spaces`).set(admin.auth).expect(201);
    expect(bare.body).toMatchObject({ title: "Untitled", emoji: "" });
    expect(bare.body.language).toBeUndefined();
    const french = await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ title: "Guide", language: "fr" })
      .expect(201);
    expect(
      (await t.request.get(`/v1/spaces/${french.body.id}`).set(admin.auth).expect(200)).body.language,
    ).toBe("fr");
    await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ language: "klingon" })
      .expect(400);
    // GitBook's ways to fill a new space: empty is what every new space is; the others Quire lacks.
    await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ empty: true })
      .expect(201);
    const count = async () =>
      (await t.request.get(`/v1/orgs/${organizationId}/spaces?limit=0`).set(admin.auth).expect(200)).body
        .count;
    const before = await count();
    for (const body of [{ template: { id: "blank" } }, { computedSource: { type: "x" } }, { empty: false }])
      await t.request.post(`/v1/orgs/${organizationId}/spaces`).set(admin.auth).send(body).expect(400);
    expect(await count()).toBe(before);
  });

  it("creates inside a collection of the organization", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const res = await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ parent: collection.id })
      .expect(201);
    expect(res.body.parent).toBe(collection.id);
  });

  it("answers 401 for an unknown token", async () => {
    const res = await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set({ Authorization: "Bearer quire_nope" })
      .send({})
      .expect(401);
    expect(res.body).toEqual({ error: { code: 401, type: "unauthorized", message: expect.any(String) } });
  });

  it("answers 403 to a reader and 404 to a non-member, creating nothing", async () => {
    const before = await t.request.get(`/v1/orgs/${organizationId}/spaces`).set(admin.auth);
    await t.request.post(`/v1/orgs/${organizationId}/spaces`).set(reader.auth).send({}).expect(403);
    await t.request.post(`/v1/orgs/${organizationId}/spaces`).set(outsider.auth).send({}).expect(404);
    const after = await t.request.get(`/v1/orgs/${organizationId}/spaces`).set(admin.auth);
    expect(after.body.count).toBe(before.body.count);
  });

  it("answers 400 for a title over 50 characters or a parent of another organization", async () => {
    const res = await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ title: "x".repeat(51) })
      .expect(400);
    expect(res.body.error.message).toContain("title");
    const other = await t.organization();
    const foreign = await buildCollection(t, { organization_id: other.organizationId });
    await t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ parent: foreign.id })
      .expect(400);
  });
});

describe("GET /v1/orgs/{organizationId}/spaces", () => {
  it("lists the spaces that are not deleted, page by page", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    for (let i = 0; i < 5; i++) await buildSpace(t, { organization_id: org, title: `S${i}` });
    await buildSpace(t, { organization_id: org, deleted_at: t.clock.now().toISOString() });
    const first = await t.request.get(`/v1/orgs/${org}/spaces?limit=3`).set(owner.auth).expect(200);
    expect(first.body.count).toBe(5);
    expect(first.body.items.map((s: { title: string }) => s.title)).toEqual(["S0", "S1", "S2"]);
    const second = await t.request
      .get(`/v1/orgs/${org}/spaces`)
      .query({ limit: 3, page: first.body.next.page })
      .set(owner.auth)
      .expect(200);
    expect(second.body.items.map((s: { title: string }) => s.title)).toEqual(["S3", "S4"]);
    expect(second.body.next).toBeUndefined();
    // GitBook's limit=0 counts without listing: no item, and no next page to follow forever.
    const counted = await t.request.get(`/v1/orgs/${org}/spaces?limit=0`).set(owner.auth).expect(200);
    expect(counted.body).toEqual({ count: 5, items: [] });
  });

  it("answers 404 and 400", async () => {
    await t.request.get(`/v1/orgs/${organizationId}/spaces`).set(outsider.auth).expect(404);
    await t.request.get(`/v1/orgs/${organizationId}/spaces?limit=-1`).set(admin.auth).expect(400);
    await t.request.get(`/v1/orgs/${organizationId}/spaces?limit=1001`).set(admin.auth).expect(400);
    await t.request.get(`/v1/orgs/${organizationId}/spaces?page=garbage`).set(admin.auth).expect(400);
  });
});

describe("GET /v1/orgs/{organizationId}/deleted-spaces", () => {
  const deletedIn = async (org: string, user: TestUser, query = "") =>
    (await t.request.get(`/v1/orgs/${org}/deleted-spaces${query}`).set(user.auth).expect(200)).body;

  it("lists the spaces deleted in the last 7 days, the last deleted first, until restored or gone", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const [kept, older, newer] = await Promise.all(
      ["Kept", "Older", "Newer"].map((title) => buildSpace(t, { organization_id: org, title })),
    );
    expect((await deletedIn(org, owner)).items).toEqual([]);
    await t.request.delete(`/v1/spaces/${older?.id}`).set(owner.auth).expect(204);
    t.clock.advance(DAY);
    await t.request.delete(`/v1/spaces/${newer?.id}`).set(owner.auth).expect(204);
    const listed = await deletedIn(org, owner);
    expect(listed.count).toBe(2);
    expect(listed.items.map((s: { title: string }) => s.title)).toEqual(["Newer", "Older"]);
    expect(listed.items[0]).toMatchObject({
      deletedAt: t.clock.now().toISOString(),
      permissions: { admin: true },
    });
    // Page by page, on the same order.
    const first = await deletedIn(org, owner, "?limit=1");
    const second = await deletedIn(org, owner, `?limit=1&page=${first.next.page}`);
    expect([...first.items, ...second.items].map((s: { id: string }) => s.id)).toEqual([
      newer?.id,
      older?.id,
    ]);
    expect(second.next).toBeUndefined();
    expect((await deletedIn(org, owner)).items.map((s: { id: string }) => s.id)).not.toContain(kept?.id);

    await t.request.post(`/v1/spaces/${newer?.id}/restore`).set(owner.auth).expect(200);
    // Past 7 days the older one can no longer be restored, so it is not listed either.
    t.clock.advance(DELETED_SPACE_RETENTION_MS - DAY);
    expect((await deletedIn(org, owner)).items).toEqual([]);
  });

  it("lists to a guest only the deleted spaces granted to them", async () => {
    const { organizationId: org, admin: owner, guest } = await buildOrganization(t, { guest: "guest" });
    const [granted, other] = await Promise.all(
      ["Granted", "Other"].map((title) => buildSpace(t, { organization_id: org, title })),
    );
    await t.request
      .post(`/v1/spaces/${granted?.id}/permissions`)
      .set(owner.auth)
      .send({ role: "read", users: [guest.user.id] })
      .expect(204);
    for (const space of [granted, other])
      await t.request.delete(`/v1/spaces/${space?.id}`).set(owner.auth).expect(204);
    expect((await deletedIn(org, guest)).items.map((s: { id: string }) => s.id)).toEqual([granted?.id]);
    expect((await deletedIn(org, owner)).count).toBe(2);
  });

  it("answers 401, 404 to a non-member, 400 for a bad page", async () => {
    await t.request.get(`/v1/orgs/${organizationId}/deleted-spaces`).expect(401);
    await t.request.get(`/v1/orgs/${organizationId}/deleted-spaces`).set(outsider.auth).expect(404);
    await t.request.get(`/v1/orgs/${organizationId}/deleted-spaces?limit=-1`).set(admin.auth).expect(400);
    await t.request.get(`/v1/orgs/${organizationId}/deleted-spaces?page=garbage`).set(admin.auth).expect(400);
  });
});

describe("GET /v1/spaces/{spaceId}", () => {
  it("returns the space with the reader's permissions", async () => {
    const space = await buildSpace(t, { organization_id: organizationId, title: "Read me" });
    const res = await t.request.get(`/v1/spaces/${space.id}`).set(reader.auth).expect(200);
    expect(res.body).toMatchObject({ id: space.id, title: "Read me", revision: space.revision_id });
    expect(res.body.permissions).toMatchObject({ view: true, admin: false, edit: false, comment: false });
    // Only the organization's admins install integrations, in spaces as elsewhere.
    expect(res.body.permissions.installIntegration).toBe(false);
    const asAdmin = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(asAdmin.body.permissions).toMatchObject({ admin: true, installIntegration: true });
  });

  it("gives the space's defaultLevel to members whose role is lower", async () => {
    const space = await buildSpace(t, { organization_id: organizationId, default_level: "edit" });
    const res = await t.request.get(`/v1/spaces/${space.id}`).set(reader.auth).expect(200);
    expect(res.body.permissions).toMatchObject({ edit: true, comment: true, admin: false, review: false });
  });

  it("answers 404 for a non-member or unknown id, 400 for an unknown query parameter", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request.get(`/v1/spaces/${space.id}`).set(outsider.auth).expect(404);
    await t.request.get("/v1/spaces/missing").set(admin.auth).expect(404);
    await t.request.get(`/v1/spaces/${space.id}?bogus=1`).set(admin.auth).expect(400);
  });
});

describe("PATCH /v1/spaces/{spaceId}", () => {
  it("updates the given fields only", async () => {
    const space = await buildSpace(t, { organization_id: organizationId, title: "Before", emoji: "🙂" });
    t.clock.advance(1000);
    const res = await t.request
      .patch(`/v1/spaces/${space.id}`)
      .set(admin.auth)
      .send({ title: "After", editMode: "locked" })
      .expect(200);
    expect(res.body).toMatchObject({ title: "After", emoji: "🙂", editMode: "locked" });
    expect(res.body.updatedAt > space.updated_at).toBe(true);
  });

  it("sets and removes the language and the emoji (null), as GitBook's client sends them", async () => {
    const space = await buildSpace(t, { organization_id: organizationId, emoji: "🙂" });
    const patch = (body: object, status = 200) =>
      t.request.patch(`/v1/spaces/${space.id}`).set(admin.auth).send(body).expect(status);
    expect((await patch({ language: "pt-br" })).body).toMatchObject({ language: "pt-br", emoji: "🙂" });
    const cleared = (await patch({ emoji: null, icon: null, language: null })).body;
    expect(cleared.emoji).toBe("");
    expect(cleared.language).toBeUndefined();
    const read = (await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body;
    expect(read).toMatchObject({ emoji: "" });
    expect(read.language).toBeUndefined();
    // Quire keeps no space icon: a URL is refused, changing nothing.
    const refused = await patch({ icon: "https://example.com/icon.png", title: "Never" }, 400);
    expect(refused.body.error.message).toContain("icon");
    await patch({ language: "xx" }, 400);
    expect((await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.title).not.toBe(
      "Never",
    );
  });

  it("answers 403 to a reader, 404 to a non-member, 400 for a bad enum, 409 while deleted", async () => {
    const space = await buildSpace(t, { organization_id: organizationId, title: "Same" });
    await t.request.patch(`/v1/spaces/${space.id}`).set(reader.auth).send({ title: "x" }).expect(403);
    await t.request.patch(`/v1/spaces/${space.id}`).set(outsider.auth).send({ title: "x" }).expect(404);
    await t.request.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ editMode: "frozen" }).expect(400);
    const deleted = await buildSpace(t, {
      organization_id: organizationId,
      deleted_at: t.clock.now().toISOString(),
    });
    await t.request.patch(`/v1/spaces/${deleted.id}`).set(admin.auth).send({ title: "x" }).expect(409);
    const unchanged = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth);
    expect(unchanged.body.title).toBe("Same");
  });
});

describe("DELETE /v1/spaces/{spaceId} and POST /v1/spaces/{spaceId}/restore", () => {
  it("deletes (setting deletedAt), hides from lists, restores within 7 days", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request.delete(`/v1/spaces/${space.id}`).set(admin.auth).expect(204);
    const deleted = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(deleted.body.deletedAt).toBe(t.clock.now().toISOString());
    const list = await t.request.get(`/v1/orgs/${organizationId}/spaces?limit=1000`).set(admin.auth);
    expect(list.body.items.map((s: { id: string }) => s.id)).not.toContain(space.id);

    t.clock.advance(6 * DAY);
    const restored = await t.request.post(`/v1/spaces/${space.id}/restore`).set(admin.auth).expect(200);
    expect(restored.body.deletedAt).toBeUndefined();
  });

  it("cannot restore after 7 days: the space is gone", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request.delete(`/v1/spaces/${space.id}`).set(admin.auth).expect(204);
    t.clock.advance(DELETED_SPACE_RETENTION_MS + 1);
    await t.request.post(`/v1/spaces/${space.id}/restore`).set(admin.auth).expect(404);
    await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(404);
  });

  it("answers 409 when restoring a space that is not deleted", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request.post(`/v1/spaces/${space.id}/restore`).set(admin.auth).expect(409);
  });

  it("answers 403 and 404, deleting nothing", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request.delete(`/v1/spaces/${space.id}`).set(reader.auth).expect(403);
    await t.request.delete(`/v1/spaces/${space.id}`).set(outsider.auth).expect(404);
    await t.request.post(`/v1/spaces/${space.id}/restore`).set(reader.auth).expect(403);
    const res = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth);
    expect(res.body.deletedAt).toBeUndefined();
  });

  it("answers 400 for a body on restore that is not JSON", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request
      .post(`/v1/spaces/${space.id}/restore`)
      .set(admin.auth)
      .set("Content-Type", "application/json")
      .send("{oops")
      .expect(400);
  });
});

describe("POST /v1/spaces/{spaceId}/duplicate", () => {
  it("copies the space right after the original, with a new revision", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const original = await buildSpace(t, {
      organization_id: organizationId,
      parent_id: collection.id,
      title: "Guide",
    });
    const last = await buildSpace(t, {
      organization_id: organizationId,
      parent_id: collection.id,
      title: "Last",
    });
    const res = await t.request.post(`/v1/spaces/${original.id}/duplicate`).set(admin.auth).expect(201);
    expect(res.body).toMatchObject({ title: "Guide (copy)", parent: collection.id });
    expect(res.body.id).not.toBe(original.id);
    expect(res.body.revision).not.toBe(original.revision_id);
    expect(res.headers.location).toBe(res.body.urls.location);
    const inCollection = await t.request.get(`/v1/collections/${collection.id}/spaces`).set(admin.auth);
    expect(inCollection.body.items.map((s: { id: string }) => s.id)).toEqual([
      original.id,
      res.body.id,
      last.id,
    ]);
  });

  it("answers 403, 404, and 409 for a deleted space", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request.post(`/v1/spaces/${space.id}/duplicate`).set(reader.auth).expect(403);
    await t.request.post(`/v1/spaces/${space.id}/duplicate`).set(outsider.auth).expect(404);
    const deleted = await buildSpace(t, {
      organization_id: organizationId,
      deleted_at: t.clock.now().toISOString(),
    });
    await t.request.post(`/v1/spaces/${deleted.id}/duplicate`).set(admin.auth).expect(409);
  });
});

describe("POST /v1/spaces/{spaceId}/move", () => {
  it("moves into a collection before a sibling, and back to the top level", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const a = await buildSpace(t, { organization_id: organizationId, parent_id: collection.id, title: "A" });
    const b = await buildSpace(t, { organization_id: organizationId, parent_id: collection.id, title: "B" });
    const moving = await buildSpace(t, { organization_id: organizationId, title: "M" });
    const res = await t.request
      .post(`/v1/spaces/${moving.id}/move`)
      .set(admin.auth)
      .send({ parent: collection.id, position: { before: { type: "space", space: b.id } } })
      .expect(200);
    expect(res.body.parent).toBe(collection.id);
    const order = await t.request.get(`/v1/collections/${collection.id}/spaces`).set(admin.auth);
    expect(order.body.items.map((s: { id: string }) => s.id)).toEqual([a.id, moving.id, b.id]);

    const top = await t.request
      .post(`/v1/spaces/${moving.id}/move`)
      .set(admin.auth)
      .send({ parent: null })
      .expect(200);
    expect(top.body.parent).toBeUndefined();
  });

  it("answers 400 for a position outside the target parent or a malformed pointer", async () => {
    const collection = await buildCollection(t, { organization_id: organizationId });
    const elsewhere = await buildSpace(t, { organization_id: organizationId });
    const moving = await buildSpace(t, { organization_id: organizationId });
    await t.request
      .post(`/v1/spaces/${moving.id}/move`)
      .set(admin.auth)
      .send({ parent: collection.id, position: { after: { type: "space", space: elsewhere.id } } })
      .expect(400);
    await t.request
      .post(`/v1/spaces/${moving.id}/move`)
      .set(admin.auth)
      .send({ position: { after: { type: "page", page: "x" } } })
      .expect(400);
    const unchanged = await t.request.get(`/v1/spaces/${moving.id}`).set(admin.auth);
    expect(unchanged.body.parent).toBeUndefined();
  });

  it("answers 403, 404, and 409 for an empty move", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request.post(`/v1/spaces/${space.id}/move`).set(reader.auth).send({ parent: null }).expect(403);
    await t.request.post(`/v1/spaces/${space.id}/move`).set(outsider.auth).send({ parent: null }).expect(404);
    await t.request.post(`/v1/spaces/${space.id}/move`).set(admin.auth).send({}).expect(409);
  });
});

describe("POST /v1/spaces/{spaceId}/transfer", () => {
  it("moves the space to the top level of another organization of the caller", async () => {
    const target = await t.organization();
    const both = await t.user({ organizationId, role: "admin" });
    await joinOrganization(t, target.organizationId, both, "create");
    const { space } = await buildNestedSpace(t, { organization_id: organizationId });
    const res = await t.request
      .post(`/v1/spaces/${space.id}/transfer`)
      .set(both.auth)
      .send({ organization: target.organizationId })
      .expect(200);
    expect(res.body).toMatchObject({ organization: target.organizationId });
    expect(res.body.parent).toBeUndefined();
    const listed = await t.request.get(`/v1/orgs/${target.organizationId}/spaces`).set(target.admin.auth);
    expect(listed.body.items.map((s: { id: string }) => s.id)).toContain(space.id);
  });

  it("answers 404 for an organization the caller is not in, 409 for the same one, 412 for a deleted space", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    const other = await t.organization();
    await t.request
      .post(`/v1/spaces/${space.id}/transfer`)
      .set(admin.auth)
      .send({ organization: other.organizationId })
      .expect(404);
    await t.request
      .post(`/v1/spaces/${space.id}/transfer`)
      .set(admin.auth)
      .send({ organization: organizationId })
      .expect(409);
    const mine = await t.organization();
    await joinOrganization(t, mine.organizationId, admin, "admin");
    const deleted = await buildSpace(t, {
      organization_id: organizationId,
      deleted_at: t.clock.now().toISOString(),
    });
    await t.request
      .post(`/v1/spaces/${deleted.id}/transfer`)
      .set(admin.auth)
      .send({ organization: mine.organizationId })
      .expect(412);
  });

  it("answers 403 and 400", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    await t.request
      .post(`/v1/spaces/${space.id}/transfer`)
      .set(reader.auth)
      .send({ organization: "x" })
      .expect(403);
    await t.request.post(`/v1/spaces/${space.id}/transfer`).set(admin.auth).send({}).expect(400);
  });
});

describe("corrections", () => {
  it("keeps updatedAt when a PATCH changes nothing", async () => {
    const space = await buildSpace(t, { organization_id: organizationId });
    t.clock.advance(1000);
    const res = await t.request.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({}).expect(200);
    expect(res.body.updatedAt).toBe(space.updated_at);
    const read = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(read.body.updatedAt).toBe(space.updated_at);
  });

  it("never cuts a duplicate's title inside an emoji", async () => {
    const title = `${"x".repeat(42)}👩‍💻`;
    const space = await buildSpace(t, { organization_id: organizationId, title });
    const res = await t.request.post(`/v1/spaces/${space.id}/duplicate`).set(admin.auth).expect(201);
    expect(res.body.title.length).toBeLessThanOrEqual(50);
    expect(res.body.title.startsWith(title)).toBe(true);
    expect(res.body.title).not.toMatch(/[\uD800-\uDBFF]$/);
  });

  it("answers 400 for a NUL character in an id or a string", async () => {
    await t.request.get("/v1/spaces/abc%00def").set(admin.auth).expect(400);
    const space = await buildSpace(t, { organization_id: organizationId, title: "Clean" });
    await t.request.patch(`/v1/spaces/${space.id}`).set(admin.auth).send({ title: "a\u0000b" }).expect(400);
    const read = await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200);
    expect(read.body.title).toBe("Clean");
  });

  it("answers 400 for a lone surrogate, which could not be read back as sent, and keeps pairs", async () => {
    const space = await buildSpace(t, { organization_id: organizationId, title: "Clean" });
    const patch = (json: string) =>
      t.request
        .patch(`/v1/spaces/${space.id}`)
        .set(admin.auth)
        .set("Content-Type", "application/json")
        .send(json);
    for (const lone of ['{"title":"a\\ud800b"}', '{"title":"a\\uDC00"}', '{"t\\ud800":"x"}']) {
      const res = await patch(lone).expect(400);
      expect(res.body.error.message).toBe("body must not contain a NUL character or a lone surrogate");
    }
    expect((await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.title).toBe(
      "Clean",
    );
    const paired = await patch('{"title":"smile \\ud83d\\ude00"}').expect(200);
    expect(paired.body.title).toBe("smile \u{1F600}");
    expect((await t.request.get(`/v1/spaces/${space.id}`).set(admin.auth).expect(200)).body.title).toBe(
      "smile \u{1F600}",
    );
  });
});
