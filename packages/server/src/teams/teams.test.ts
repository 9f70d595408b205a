import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOrganization } from "../testing/fixtures.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A fresh organization with an admin, two readers and a guest. */
async function scenario() {
  const s = await buildOrganization(t, { ada: "read", bob: "read", guest: "guest" });
  return { ...s, teamsUrl: `/v1/orgs/${s.organizationId}/teams` };
}

interface TeamBody {
  id: string;
  title: string;
  members: number;
  spaces: number;
  permissions: { admin: boolean; view: boolean };
}

async function createTeam(
  teamsUrl: string,
  admin: TestUser,
  body: Record<string, unknown>,
): Promise<TeamBody> {
  const res = await t.request.put(teamsUrl).set(admin.auth).send(body).expect(201);
  return res.body as TeamBody;
}

describe("PUT /v1/orgs/{organizationId}/teams", () => {
  it("creates a team with its members, at its Location", async () => {
    const s = await scenario();
    const res = await t.request
      .put(s.teamsUrl)
      .set(s.admin.auth)
      .send({ title: "Writers", members: [s.ada.user.id, s.ada.user.id, s.bob.user.id] })
      .expect(201);
    expect(res.body).toEqual({
      object: "team",
      id: expect.any(String),
      title: "Writers",
      members: 2,
      spaces: 0,
      createdAt: t.clock.now().toISOString(),
      permissions: { admin: true, view: true },
    });
    expect(res.headers.location).toBe(`http://quire.test/v1/orgs/${s.organizationId}/teams/${res.body.id}`);
    const read = await t.request.get(`${s.teamsUrl}/${res.body.id}`).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(res.body);
  });

  it("answers 400 for a non-member or a bad title, 403 and 404", async () => {
    const s = await scenario();
    const outsider = await t.user();
    await t.request
      .put(s.teamsUrl)
      .set(s.admin.auth)
      .send({ title: "X", members: [outsider.user.id] })
      .expect(400);
    await t.request.put(s.teamsUrl).set(s.admin.auth).send({ title: "" }).expect(400);
    await t.request.put(s.teamsUrl).set(s.ada.auth).send({ title: "X" }).expect(403);
    await t.request.put(s.teamsUrl).set(outsider.auth).send({ title: "X" }).expect(404);
    const listed = await t.request.get(s.teamsUrl).set(s.admin.auth).expect(200);
    expect(listed.body.count).toBe(0);
  });
});

describe("GET /v1/orgs/{organizationId}/teams", () => {
  it("lists teams, by title and by who can manage them", async () => {
    const s = await scenario();
    const writers = await createTeam(s.teamsUrl, s.admin, { title: "Writers" });
    const editors = await createTeam(s.teamsUrl, s.admin, { title: "Editors" });
    await t.request
      .put(`${s.teamsUrl}/${editors.id}/members/${s.ada.user.id}`)
      .set(s.admin.auth)
      .send({ role: "owner" })
      .expect(204);
    const all = await t.request.get(s.teamsUrl).set(s.bob.auth).expect(200);
    expect(all.body.count).toBe(2);
    expect(all.body.items.map((team: TeamBody) => team.id)).toEqual([writers.id, editors.id]);
    expect(all.body.items[0].permissions).toEqual({ admin: false, view: true });
    const titled = await t.request.get(`${s.teamsUrl}?title=WRIT`).set(s.bob.auth).expect(200);
    expect(titled.body.items.map((team: TeamBody) => team.id)).toEqual([writers.id]);
    const owned = await t.request.get(`${s.teamsUrl}?owner=${s.ada.user.id}`).set(s.bob.auth).expect(200);
    expect(owned.body.items.map((team: TeamBody) => team.id)).toEqual([editors.id]);
    const byAdmin = await t.request.get(`${s.teamsUrl}?owner=${s.admin.user.id}`).set(s.bob.auth).expect(200);
    expect(byAdmin.body.count).toBe(2);
    const asOwner = await t.request.get(`${s.teamsUrl}?owner=${s.ada.user.id}`).set(s.ada.auth).expect(200);
    expect(asOwner.body.items[0].permissions).toEqual({ admin: true, view: true });
  });

  it("shows a team's owner, and only them, that they own a team in the organization (GitBook's ownTeam)", async () => {
    const s = await scenario();
    const ownTeam = async (user: TestUser) => {
      const got = await t.request.get(`/v1/orgs/${s.organizationId}`).set(user.auth).expect(200);
      const listed = await t.request.get("/v1/orgs").set(user.auth).expect(200);
      const inList = listed.body.items.find((org: { id: string }) => org.id === s.organizationId);
      expect(inList.permissions.ownTeam).toBe(got.body.permissions.ownTeam);
      return got.body.permissions.ownTeam;
    };
    const team = await createTeam(s.teamsUrl, s.admin, { title: "Writers" });
    await t.request
      .put(`${s.teamsUrl}/${team.id}/members/${s.bob.user.id}`)
      .set(s.admin.auth)
      .send({})
      .expect(204);
    expect(await ownTeam(s.ada)).toBe(false);
    await t.request
      .put(`${s.teamsUrl}/${team.id}/members/${s.ada.user.id}`)
      .set(s.admin.auth)
      .send({ role: "owner" })
      .expect(204);
    expect(await ownTeam(s.ada)).toBe(true);
    expect(await ownTeam(s.bob)).toBe(false);
  });

  it("answers 400 for an owner who is not a member, 403 to a guest and 404", async () => {
    const s = await scenario();
    const outsider = await t.user();
    await t.request.get(`${s.teamsUrl}?owner=${outsider.user.id}`).set(s.admin.auth).expect(400);
    await t.request.get(s.teamsUrl).set(s.guest.auth).expect(403);
    await t.request.get(s.teamsUrl).set(outsider.auth).expect(404);
  });
});

describe("GET / PATCH / DELETE /v1/orgs/{organizationId}/teams/{teamId}", () => {
  it("renames a team as admin or as its owner, not as a member", async () => {
    const s = await scenario();
    const team = await createTeam(s.teamsUrl, s.admin, { title: "Writers", members: [s.bob.user.id] });
    await t.request
      .put(`${s.teamsUrl}/${team.id}/members/${s.ada.user.id}`)
      .set(s.admin.auth)
      .send({ role: "owner" })
      .expect(204);
    const res = await t.request
      .patch(`${s.teamsUrl}/${team.id}`)
      .set(s.ada.auth)
      .send({ title: "Authors" })
      .expect(200);
    expect(res.body).toMatchObject({ title: "Authors", members: 2, permissions: { admin: true } });
    const read = await t.request.get(`${s.teamsUrl}/${team.id}`).set(s.bob.auth).expect(200);
    expect(read.body.title).toBe("Authors");
    // GitBook requires `permissions`: computed from the caller's roles, here a plain team member's.
    expect(read.body.permissions).toEqual({ admin: false, view: true });
    await t.request.patch(`${s.teamsUrl}/${team.id}`).set(s.bob.auth).send({ title: "Mine" }).expect(403);
    await t.request
      .patch(`${s.teamsUrl}/${team.id}`)
      .set(s.admin.auth)
      .send({ title: "x".repeat(65) })
      .expect(400);
    const same = await t.request.patch(`${s.teamsUrl}/${team.id}`).set(s.admin.auth).send({}).expect(200);
    expect(same.body.title).toBe("Authors");
  });

  it("deletes a team as admin; its members stay in the organization", async () => {
    const s = await scenario();
    const team = await createTeam(s.teamsUrl, s.admin, { title: "Writers", members: [s.ada.user.id] });
    await t.request
      .put(`${s.teamsUrl}/${team.id}/members/${s.bob.user.id}`)
      .set(s.admin.auth)
      .send({ role: "owner" })
      .expect(204);
    await t.request.delete(`${s.teamsUrl}/${team.id}`).set(s.bob.auth).expect(403);
    await t.request.delete(`${s.teamsUrl}/${team.id}`).set(s.admin.auth).expect(204);
    await t.request.get(`${s.teamsUrl}/${team.id}`).set(s.admin.auth).expect(404);
    await t.request.delete(`${s.teamsUrl}/${team.id}`).set(s.admin.auth).expect(404);
    const ada = await t.request
      .get(`/v1/orgs/${s.organizationId}/members/${s.ada.user.id}`)
      .set(s.admin.auth)
      .expect(200);
    expect(ada.body.teams).toBe(0);
  });

  it("answers 404 for a team of another organization and 403 to a guest", async () => {
    const s = await scenario();
    const other = await scenario();
    const team = await createTeam(other.teamsUrl, other.admin, { title: "Theirs" });
    await t.request.get(`${s.teamsUrl}/${team.id}`).set(s.admin.auth).expect(404);
    await t.request.get(`${other.teamsUrl}/${team.id}`).set(s.admin.auth).expect(404);
    await t.request.patch(`${s.teamsUrl}/${team.id}`).set(s.admin.auth).send({ title: "Mine" }).expect(404);
    await t.request.get(`${other.teamsUrl}/${team.id}`).set(other.guest.auth).expect(403);
  });
});

describe("team members", () => {
  it("adds, updates, lists and removes members; counts follow", async () => {
    const s = await scenario();
    const team = await createTeam(s.teamsUrl, s.admin, { title: "Writers" });
    const membersUrl = `${s.teamsUrl}/${team.id}/members`;
    await t.request.put(`${membersUrl}/${s.ada.user.id}`).set(s.admin.auth).expect(204);
    await t.request.put(`${membersUrl}/${s.ada.user.id}`).set(s.admin.auth).send({}).expect(204);
    await t.request
      .put(`${membersUrl}/${s.bob.user.id}`)
      .set(s.admin.auth)
      .send({ role: "owner" })
      .expect(204);
    const list = await t.request.get(membersUrl).set(s.ada.auth).expect(200);
    expect(list.body.count).toBe(2);
    const roles = Object.fromEntries(
      list.body.items.map((i: { organization: { id: string }; team: { role: string } }) => [
        i.organization.id,
        i.team.role,
      ]),
    );
    expect(roles).toEqual({ [s.ada.user.id]: "member", [s.bob.user.id]: "owner" });
    expect(list.body.items[0]).toMatchObject({
      organization: { object: "member", teams: 1 },
      permissions: { view: true },
    });
    // An owner manages the team's members; removing twice is fine.
    await t.request.put(`${membersUrl}/${s.ada.user.id}`).set(s.bob.auth).send({ role: "owner" }).expect(204);
    await t.request.delete(`${membersUrl}/${s.ada.user.id}`).set(s.bob.auth).expect(204);
    await t.request.delete(`${membersUrl}/${s.ada.user.id}`).set(s.bob.auth).expect(204);
    const read = await t.request.get(`${s.teamsUrl}/${team.id}`).set(s.admin.auth).expect(200);
    expect(read.body.members).toBe(1);
    const after = await t.request.get(membersUrl).set(s.admin.auth).expect(200);
    expect(after.body.count).toBe(1);
  });

  it("answers 400 for a non-member, 403 to a plain member and 404 for another organization's team", async () => {
    const s = await scenario();
    const other = await scenario();
    const team = await createTeam(s.teamsUrl, s.admin, { title: "Writers", members: [s.ada.user.id] });
    const membersUrl = `${s.teamsUrl}/${team.id}/members`;
    await t.request.put(`${membersUrl}/${other.ada.user.id}`).set(s.admin.auth).send({}).expect(400);
    await t.request
      .put(`${membersUrl}/${s.bob.user.id}`)
      .set(s.admin.auth)
      .send({ role: "boss" })
      .expect(400);
    await t.request.put(`${membersUrl}/${s.bob.user.id}`).set(s.ada.auth).send({}).expect(403);
    await t.request.delete(`${membersUrl}/${s.ada.user.id}`).set(s.bob.auth).expect(403);
    await t.request.get(membersUrl).set(s.guest.auth).expect(403);
    await t.request.get(membersUrl).set(other.admin.auth).expect(404);
    await t.request
      .put(`${other.teamsUrl}/${team.id}/members/${other.ada.user.id}`)
      .set(other.admin.auth)
      .send({})
      .expect(404);
    const list = await t.request.get(membersUrl).set(s.admin.auth).expect(200);
    expect(list.body.count).toBe(1);
  });
});
