import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../db/schema.js";
import { spacePermissions } from "../spaces/policy.js";
import { buildNestedSpace, buildSpace } from "../testing/factories.js";
import { buildOrganization } from "../testing/fixtures.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An organization with a collection holding a space, an admin, a creator, a reader and a guest. */
async function scenario() {
  const { organizationId, admin, creator, reader, guest } = await buildOrganization(t, {
    creator: "create",
    reader: "read",
    guest: "guest",
  });
  const { collection, space } = await buildNestedSpace(t, { organization_id: organizationId });
  const team = await t.request
    .put(`/v1/orgs/${organizationId}/teams`)
    .set(admin.auth)
    .send({ title: "Team", members: [reader.user.id] })
    .expect(201);
  return { organizationId, admin, creator, reader, guest, collection, space, teamId: team.body.id as string };
}

const spaceUrl = (id: string) => `/v1/spaces/${id}/permissions`;
const collectionUrl = (id: string) => `/v1/collections/${id}/permissions`;

async function userGrants(url: string, user: TestUser) {
  const res = await t.request.get(`${url}/users`).set(user.auth).expect(200);
  return res.body.items.map((i: { user: { id: string }; permission: string }) => [i.user.id, i.permission]);
}

describe("POST /v1/spaces/{spaceId}/permissions and the user and team lists", () => {
  it("gives users and teams a role, lists them, changes and removes them", async () => {
    const s = await scenario();
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.creator.auth)
      .send({ role: "edit", users: [s.guest.user.id], teams: [s.teamId] })
      .expect(204);
    expect(await userGrants(spaceUrl(s.space.id), s.reader)).toEqual([[s.guest.user.id, "edit"]]);
    const teams = await t.request
      .get(`${spaceUrl(s.space.id)}/teams`)
      .set(s.reader.auth)
      .expect(200);
    expect(teams.body).toMatchObject({
      count: 1,
      items: [{ permission: "edit", team: { id: s.teamId, spaces: 1 } }],
    });
    await t.request
      .patch(`${spaceUrl(s.space.id)}/users/${s.guest.user.id}`)
      .set(s.admin.auth)
      .send({ role: "comment" })
      .expect(204);
    expect(await userGrants(spaceUrl(s.space.id), s.admin)).toEqual([[s.guest.user.id, "comment"]]);
    await t.request
      .patch(`${spaceUrl(s.space.id)}/users/${s.guest.user.id}`)
      .set(s.admin.auth)
      .send({})
      .expect(204);
    expect(await userGrants(spaceUrl(s.space.id), s.admin)).toEqual([[s.guest.user.id, "comment"]]);
    await t.request
      .patch(`${spaceUrl(s.space.id)}/users/${s.guest.user.id}`)
      .set(s.admin.auth)
      .send({ role: null })
      .expect(204);
    expect(await userGrants(spaceUrl(s.space.id), s.admin)).toEqual([]);
    await t.request
      .patch(`${spaceUrl(s.space.id)}/teams/${s.teamId}`)
      .set(s.admin.auth)
      .send({ role: null })
      .expect(204);
    const none = await t.request
      .get(`${spaceUrl(s.space.id)}/teams`)
      .set(s.admin.auth)
      .expect(200);
    expect(none.body.count).toBe(0);
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.admin.auth)
      .send({ role: "read", teams: [s.teamId] })
      .expect(204);
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.admin.auth)
      .send({ role: null, teams: [s.teamId] })
      .expect(204);
    const removed = await t.request
      .get(`${spaceUrl(s.space.id)}/teams`)
      .set(s.admin.auth)
      .expect(200);
    expect(removed.body.count).toBe(0);
  });

  it("answers 400, 403 and 404", async () => {
    const s = await scenario();
    const other = await scenario();
    await t.request.post(spaceUrl(s.space.id)).set(s.admin.auth).send({ role: "read" }).expect(400);
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.admin.auth)
      .send({ role: "boss", users: [s.guest.user.id] })
      .expect(400);
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.admin.auth)
      .send({ role: "read", users: [] })
      .expect(400);
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.reader.auth)
      .send({ role: "read", users: [s.guest.user.id] })
      .expect(403);
    // A creator gives no role above their own.
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.creator.auth)
      .send({ role: "admin", users: [s.guest.user.id] })
      .expect(403);
    await t.request
      .post(spaceUrl(s.space.id))
      .set(other.admin.auth)
      .send({ role: "read", users: [s.guest.user.id] })
      .expect(404);
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.admin.auth)
      .send({ role: "read", users: [other.reader.user.id] })
      .expect(404);
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.admin.auth)
      .send({ role: "read", teams: [other.teamId] })
      .expect(404);
    await t.request
      .patch(`${spaceUrl(s.space.id)}/teams/${other.teamId}`)
      .set(s.admin.auth)
      .send({ role: "read" })
      .expect(404);
    await t.request
      .get(`${spaceUrl(s.space.id)}/users`)
      .set(s.guest.auth)
      .expect(404);
    await t.request
      .get(`${spaceUrl(s.space.id)}/users`)
      .set(other.admin.auth)
      .expect(404);
    await t.request
      .get(`${spaceUrl(s.space.id)}/users?limit=-1`)
      .set(s.admin.auth)
      .expect(400);
    expect(await userGrants(spaceUrl(s.space.id), s.admin)).toEqual([]);
  });
});

describe("collection permissions", () => {
  it("are inherited by what the collection contains", async () => {
    const s = await scenario();
    await t.request.get(`/v1/spaces/${s.space.id}`).set(s.guest.auth).expect(404);
    const listedCollections = async (query = "") =>
      (
        await t.request.get(`/v1/orgs/${s.organizationId}/collections${query}`).set(s.guest.auth).expect(200)
      ).body.items.map((i: { id: string }) => i.id);
    expect(await listedCollections()).toEqual([]);
    await t.request
      .post(collectionUrl(s.collection.id))
      .set(s.admin.auth)
      .send({ role: "review", users: [s.guest.user.id] })
      .expect(204);
    expect(await userGrants(collectionUrl(s.collection.id), s.admin)).toEqual([[s.guest.user.id, "review"]]);
    expect(await userGrants(spaceUrl(s.space.id), s.admin)).toEqual([]);
    const space = await t.request.get(`/v1/spaces/${s.space.id}`).set(s.guest.auth).expect(200);
    expect(space.body.permissions).toEqual(spacePermissions("review"));
    const listed = await t.request.get(`/v1/orgs/${s.organizationId}/spaces`).set(s.guest.auth).expect(200);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([s.space.id]);
    expect(await listedCollections()).toEqual([s.collection.id]);
    expect(await listedCollections("?nested=false")).toEqual([s.collection.id]);
    await t.request
      .patch(`${collectionUrl(s.collection.id)}/users/${s.guest.user.id}`)
      .set(s.admin.auth)
      .send({ role: null })
      .expect(204);
    await t.request.get(`/v1/spaces/${s.space.id}`).set(s.guest.auth).expect(404);
  });

  it("lists team grants and answers 403 to a reader, 404 to another organization", async () => {
    const s = await scenario();
    const other = await scenario();
    await t.request
      .post(collectionUrl(s.collection.id))
      .set(s.admin.auth)
      .send({ role: "edit", teams: [s.teamId] })
      .expect(204);
    const teams = await t.request
      .get(`${collectionUrl(s.collection.id)}/teams`)
      .set(s.reader.auth)
      .expect(200);
    expect(teams.body.items).toMatchObject([{ permission: "edit", team: { id: s.teamId } }]);
    await t.request
      .patch(`${collectionUrl(s.collection.id)}/teams/${s.teamId}`)
      .set(s.reader.auth)
      .send({ role: "admin" })
      .expect(403);
    await t.request
      .patch(`${collectionUrl(s.collection.id)}/teams/${s.teamId}`)
      .set(other.admin.auth)
      .send({ role: "admin" })
      .expect(404);
    await t.request
      .patch(`${collectionUrl(s.collection.id)}/users/${s.guest.user.id}`)
      .set(s.admin.auth)
      .send({ role: "x" })
      .expect(400);
    await t.request
      .get(`${collectionUrl(s.collection.id)}/aggregate?role=x`)
      .set(s.admin.auth)
      .expect(400);
  });
});

describe("GET …/permissions/aggregate", () => {
  it("lists everyone who reaches the content with their role there", async () => {
    const s = await scenario();
    await t.request
      .post(spaceUrl(s.space.id))
      .set(s.admin.auth)
      .send({ role: "comment", teams: [s.teamId] })
      .expect(204);
    await t.request
      .post(collectionUrl(s.collection.id))
      .set(s.admin.auth)
      .send({ role: "edit", users: [s.guest.user.id] })
      .expect(204);
    const res = await t.request
      .get(`${spaceUrl(s.space.id)}/aggregate`)
      .set(s.reader.auth)
      .expect(200);
    const roles = Object.fromEntries(
      res.body.items.map((i: { user: { id: string }; permission: string }) => [i.user.id, i.permission]),
    );
    expect(roles).toEqual({
      [s.admin.user.id]: "admin",
      [s.creator.user.id]: "create",
      [s.reader.user.id]: "comment",
      [s.guest.user.id]: "edit",
    });
    const editors = await t.request
      .get(`${spaceUrl(s.space.id)}/aggregate?role=edit`)
      .set(s.reader.auth)
      .expect(200);
    expect(editors.body.items.map((i: { user: { id: string } }) => i.user.id)).toEqual([s.guest.user.id]);
    const collection = await t.request
      .get(`${collectionUrl(s.collection.id)}/aggregate`)
      .set(s.admin.auth)
      .expect(200);
    expect(collection.body.count).toBe(4);
    const paged = await t.request
      .get(`${collectionUrl(s.collection.id)}/aggregate?limit=3`)
      .set(s.admin.auth)
      .expect(200);
    const rest = await t.request
      .get(`${collectionUrl(s.collection.id)}/aggregate?limit=3&page=${paged.body.next.page}`)
      .set(s.admin.auth)
      .expect(200);
    expect(rest.body.items).toHaveLength(1);
    await t.request
      .get(`${spaceUrl(s.space.id)}/aggregate`)
      .set(s.guest.auth)
      .expect(403);
  });
});

describe("permission matrix", () => {
  /** The caller's role on the space as the API shows it, checked against what they may do there. */
  async function check(spaceId: string, user: TestUser, role: Role | undefined) {
    const read = await t.request.get(`/v1/spaces/${spaceId}`).set(user.auth);
    if (role === undefined) {
      expect(read.status).toBe(404);
      return;
    }
    expect(read.status).toBe(200);
    expect(read.body.permissions).toEqual(spacePermissions(role));
    const rename = await t.request.patch(`/v1/spaces/${spaceId}`).set(user.auth).send({ title: "Renamed" });
    expect(rename.status).toBe(read.body.permissions.admin ? 200 : 403);
    const change = await t.request.post(`/v1/spaces/${spaceId}/change-requests`).set(user.auth).send({});
    expect(change.status).toBe(read.body.permissions.edit ? 201 : 403);
    const grant = await t.request
      .post(`/v1/spaces/${spaceId}/permissions`)
      .set(user.auth)
      .send({ role: "read", users: [user.user.id] });
    expect(grant.status).toBe(role === "create" || role === "admin" ? 204 : 403);
  }

  it("agrees with the operations for each kind of grant", async () => {
    const s = await scenario();
    const plain = await buildSpace(t, { organization_id: s.organizationId });
    const floor = await buildSpace(t, { organization_id: s.organizationId, default_level: "edit" });
    const direct = await buildSpace(t, { organization_id: s.organizationId });
    await t.request
      .post(spaceUrl(direct.id))
      .set(s.admin.auth)
      .send({ role: "review", users: [s.reader.user.id, s.guest.user.id] })
      .expect(204);
    const byTeam = await buildSpace(t, { organization_id: s.organizationId, parent_id: s.collection.id });
    await t.request
      .post(collectionUrl(s.collection.id))
      .set(s.admin.auth)
      .send({ role: "admin", teams: [s.teamId] })
      .expect(204);

    await check(plain.id, s.admin, "admin"); // organization role
    await check(plain.id, s.reader, "read");
    await check(plain.id, s.guest, undefined); // a guest without a grant
    await check(floor.id, s.reader, "edit"); // defaultLevel floor for members
    await check(floor.id, s.guest, undefined); // no floor for guests
    await check(direct.id, s.reader, "review"); // user grant
    await check(direct.id, s.guest, "review");
    await check(byTeam.id, s.reader, "admin"); // team grant, inherited from the collection
    await check(byTeam.id, s.creator, "create");
  });
});
