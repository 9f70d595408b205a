import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCollection, buildSpace } from "../testing/factories.js";
import { buildOrganization, joinOrganization } from "../testing/fixtures.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A fresh organization with an admin, an editor, a reader and a guest. */
const scenario = () => buildOrganization(t, { editor: "edit", reader: "read", guest: "guest" });

const membersUrl = (org: string) => `/v1/orgs/${org}/members`;
const memberUrl = (org: string, userId: string) => `${membersUrl(org)}/${userId}`;

interface MemberBody {
  id: string;
  role: string | null;
  spaces: number;
  teams: number;
  lastSeenAt?: string;
  sso: boolean;
}

async function listIds(org: string, user: TestUser, query = "") {
  const res = await t.request
    .get(`${membersUrl(org)}${query}`)
    .set(user.auth)
    .expect(200);
  return (res.body.items as MemberBody[]).map((m) => m.id);
}

describe("GET /v1/orgs/{organizationId}/members", () => {
  it("lists members newest first, with their users and counts", async () => {
    const s = await scenario();
    const res = await t.request.get(membersUrl(s.organizationId)).set(s.reader.auth).expect(200);
    expect(res.body.count).toBe(4);
    expect((res.body.items as MemberBody[]).map((m) => m.id)).toEqual([
      s.guest.user.id,
      s.reader.user.id,
      s.editor.user.id,
      s.admin.user.id,
    ]);
    expect(res.body.items[0]).toMatchObject({
      object: "member",
      role: null,
      disabled: false,
      sso: false,
      spaces: 0,
      teams: 0,
      user: { id: s.guest.user.id, email: s.guest.user.email },
    });
    expect(await listIds(s.organizationId, s.admin, "?order=asc")).toEqual([
      s.admin.user.id,
      s.editor.user.id,
      s.reader.user.id,
      s.guest.user.id,
    ]);
  });

  it("counts the sites a member reaches: every site of the organization, none for a guest", async () => {
    const s = await scenario();
    const other = await scenario();
    const sitesUrl = (org: string) => `/v1/orgs/${org}/sites`;
    await t.request.post(sitesUrl(s.organizationId)).set(s.admin.auth).send({ title: "Docs" }).expect(201);
    await t.request.post(sitesUrl(s.organizationId)).set(s.admin.auth).send({ title: "Blog" }).expect(201);
    await t.request
      .post(sitesUrl(other.organizationId))
      .set(other.admin.auth)
      .send({ title: "Else" })
      .expect(201);
    const sitesOf = async (userId: string) =>
      (await t.request.get(memberUrl(s.organizationId, userId)).set(s.admin.auth).expect(200)).body.sites;
    expect(await sitesOf(s.reader.user.id)).toBe(2);
    expect(await sitesOf(s.admin.user.id)).toBe(2);
    expect(await sitesOf(s.guest.user.id)).toBe(0);
    // The number agrees with what the member lists themself.
    const listed = await t.request.get(sitesUrl(s.organizationId)).set(s.reader.auth).expect(200);
    expect(listed.body.items).toHaveLength(2);
    await t.request.get(sitesUrl(s.organizationId)).set(s.guest.auth).expect(403);
    const list = await t.request.get(membersUrl(s.organizationId)).set(s.editor.auth).expect(200);
    expect(list.body.items.map((m: MemberBody & { sites: number }) => [m.id, m.sites])).toEqual([
      [s.guest.user.id, 0],
      [s.reader.user.id, 2],
      [s.editor.user.id, 2],
      [s.admin.user.id, 2],
    ]);
    const empty = await t.request
      .get(memberUrl(other.organizationId, other.guest.user.id))
      .set(other.admin.auth)
      .expect(200);
    expect(empty.body.sites).toBe(0);
  });

  it("filters by role, guests and search, and pages", async () => {
    const s = await scenario();
    expect(await listIds(s.organizationId, s.admin, "?role=edit")).toEqual([s.editor.user.id]);
    expect(await listIds(s.organizationId, s.admin, "?role=guest")).toEqual([s.guest.user.id]);
    const name = s.reader.user.display_name.toUpperCase();
    expect(await listIds(s.organizationId, s.admin, `?search=${encodeURIComponent(name)}`)).toEqual([
      s.reader.user.id,
    ]);
    expect(await listIds(s.organizationId, s.admin, `?search=${s.editor.user.email.split("@")[0]}@`)).toEqual(
      [s.editor.user.id],
    );
    expect(await listIds(s.organizationId, s.admin, "?search=%25")).toEqual([]);
    const first = await t.request
      .get(`${membersUrl(s.organizationId)}?limit=3`)
      .set(s.admin.auth)
      .expect(200);
    expect(first.body.count).toBe(4);
    const second = await t.request
      .get(`${membersUrl(s.organizationId)}?limit=3&page=${first.body.next.page}`)
      .set(s.admin.auth)
      .expect(200);
    expect([...first.body.items, ...second.body.items].map((m: MemberBody) => m.id)).toHaveLength(4);
    expect(second.body.next).toBeUndefined();
  });

  it("sorts by lastSeenAt listing only members who pinged, and by name", async () => {
    const s = await scenario();
    expect(await listIds(s.organizationId, s.admin, "?sort=lastSeenAt")).toEqual([]);
    await t.request.post(`/v1/orgs/${s.organizationId}/ping`).set(s.reader.auth).expect(200, {});
    t.clock.advance(1000);
    await t.request.post(`/v1/orgs/${s.organizationId}/ping`).set(s.guest.auth).expect(200, {});
    expect(await listIds(s.organizationId, s.admin, "?sort=lastSeenAt")).toEqual([
      s.guest.user.id,
      s.reader.user.id,
    ]);
    const reader = await t.request
      .get(memberUrl(s.organizationId, s.reader.user.id))
      .set(s.admin.auth)
      .expect(200);
    expect(reader.body.lastSeenAt).toBe(new Date(t.clock.now().getTime() - 1000).toISOString());
    const byName = await listIds(s.organizationId, s.admin, "?sort=name&order=asc");
    const names = await Promise.all(
      byName.map(
        async (id) =>
          (
            await t.db
              .selectFrom("users")
              .select("display_name")
              .where("id", "=", id)
              .executeTakeFirstOrThrow()
          ).display_name,
      ),
    );
    expect(names).toEqual([...names].sort());
  });

  it("answers 404 for another organization, 403 to a guest and 400 for a bad filter", async () => {
    const s = await scenario();
    const other = await scenario();
    await t.request.get(membersUrl(other.organizationId)).set(s.admin.auth).expect(404);
    await t.request.get(membersUrl(s.organizationId)).set(s.guest.auth).expect(403);
    await t.request
      .get(`${membersUrl(s.organizationId)}?role=owner`)
      .set(s.admin.auth)
      .expect(400);
    await t.request
      .get(`${membersUrl(s.organizationId)}?sort=age`)
      .set(s.admin.auth)
      .expect(400);
  });
});

describe("GET /v1/orgs/{organizationId}/members/{userId}", () => {
  it("gets a member; a guest only themself", async () => {
    const s = await scenario();
    const res = await t.request
      .get(memberUrl(s.organizationId, s.editor.user.id))
      .set(s.reader.auth)
      .expect(200);
    expect(res.body).toMatchObject({ id: s.editor.user.id, role: "edit" });
    await t.request.get(memberUrl(s.organizationId, s.guest.user.id)).set(s.guest.auth).expect(200);
    await t.request.get(memberUrl(s.organizationId, s.editor.user.id)).set(s.guest.auth).expect(403);
    const outsider = await t.user();
    await t.request.get(memberUrl(s.organizationId, outsider.user.id)).set(s.admin.auth).expect(404);
    await t.request.get(memberUrl(s.organizationId, s.editor.user.id)).set(outsider.auth).expect(404);
  });
});

describe("PATCH /v1/orgs/{organizationId}/members/{userId}", () => {
  it("changes a role, to guest too, and reads it back", async () => {
    const s = await scenario();
    const res = await t.request
      .patch(memberUrl(s.organizationId, s.reader.user.id))
      .set(s.admin.auth)
      .send({ role: "review" })
      .expect(200);
    expect(res.body.role).toBe("review");
    await t.request
      .patch(memberUrl(s.organizationId, s.editor.user.id))
      .set(s.admin.auth)
      .send({ role: null })
      .expect(200);
    expect(await listIds(s.organizationId, s.admin, "?role=guest")).toContain(s.editor.user.id);
    const same = await t.request
      .patch(memberUrl(s.organizationId, s.reader.user.id))
      .set(s.admin.auth)
      .send({})
      .expect(200);
    expect(same.body.role).toBe("review");
  });

  it("never leaves the organization without an admin (409)", async () => {
    const s = await scenario();
    await t.request
      .patch(memberUrl(s.organizationId, s.admin.user.id))
      .set(s.admin.auth)
      .send({ role: "edit" })
      .expect(409);
    await t.request
      .patch(memberUrl(s.organizationId, s.editor.user.id))
      .set(s.admin.auth)
      .send({ role: "admin" })
      .expect(200);
    await t.request
      .patch(memberUrl(s.organizationId, s.admin.user.id))
      .set(s.admin.auth)
      .send({ role: "edit" })
      .expect(200);
    const roles = await t.db
      .selectFrom("memberships")
      .select("role")
      .where("organization_id", "=", s.organizationId)
      .where("role", "=", "admin")
      .execute();
    expect(roles).toHaveLength(1);
  });

  it("answers 403, 404 and 400", async () => {
    const s = await scenario();
    await t.request
      .patch(memberUrl(s.organizationId, s.reader.user.id))
      .set(s.editor.auth)
      .send({ role: "edit" })
      .expect(403);
    const other = await scenario();
    await t.request
      .patch(memberUrl(other.organizationId, other.reader.user.id))
      .set(s.admin.auth)
      .send({ role: "edit" })
      .expect(404);
    await t.request
      .patch(memberUrl(s.organizationId, other.reader.user.id))
      .set(s.admin.auth)
      .send({ role: "edit" })
      .expect(404);
    await t.request
      .patch(memberUrl(s.organizationId, s.reader.user.id))
      .set(s.admin.auth)
      .send({ role: "boss" })
      .expect(400);
  });
});

describe("DELETE /v1/orgs/{organizationId}/members/{userId}", () => {
  it("removes a member, their teams and grants; their next request is refused at once", async () => {
    const s = await scenario();
    const space = await buildSpace(t, { organization_id: s.organizationId });
    const team = await t.request
      .put(`/v1/orgs/${s.organizationId}/teams`)
      .set(s.admin.auth)
      .send({ title: "Docs", members: [s.editor.user.id] })
      .expect(201);
    await t.request.get(`/v1/spaces/${space.id}`).set(s.editor.auth).expect(200);
    await t.request.delete(memberUrl(s.organizationId, s.editor.user.id)).set(s.admin.auth).expect(204);
    await t.request.get(`/v1/spaces/${space.id}`).set(s.editor.auth).expect(404);
    await t.request.get(memberUrl(s.organizationId, s.editor.user.id)).set(s.admin.auth).expect(404);
    const teamRead = await t.request
      .get(`/v1/orgs/${s.organizationId}/teams/${team.body.id}`)
      .set(s.admin.auth)
      .expect(200);
    expect(teamRead.body.members).toBe(0);
  });

  it("lets a member leave, never the last admin (409), and answers 403 and 404", async () => {
    const s = await scenario();
    await t.request.delete(memberUrl(s.organizationId, s.reader.user.id)).set(s.reader.auth).expect(204);
    await t.request.delete(memberUrl(s.organizationId, s.admin.user.id)).set(s.admin.auth).expect(409);
    await t.request.delete(memberUrl(s.organizationId, s.admin.user.id)).set(s.editor.auth).expect(403);
    await t.request.delete(memberUrl(s.organizationId, s.reader.user.id)).set(s.admin.auth).expect(404);
    expect(await listIds(s.organizationId, s.admin)).toHaveLength(3);
  });
});

describe("POST /v1/orgs/{organizationId}/ping", () => {
  it("records the caller's activity; 404 for a non-member", async () => {
    const s = await scenario();
    const outsider = await t.user();
    await t.request.post(`/v1/orgs/${s.organizationId}/ping`).set(outsider.auth).expect(404);
    await t.request.post(`/v1/orgs/${s.organizationId}/ping`).set(s.editor.auth).expect(200);
    const read = await t.request
      .get(memberUrl(s.organizationId, s.editor.user.id))
      .set(s.admin.auth)
      .expect(200);
    expect(read.body.lastSeenAt).toBe(t.clock.now().toISOString());
  });
});

describe("POST /v1/orgs/{organizationId}/members/{userId}/sso", () => {
  it("makes a member an SSO member, idempotently; 409 for a member of another organization", async () => {
    const s = await scenario();
    const res = await t.request
      .post(`${memberUrl(s.organizationId, s.reader.user.id)}/sso`)
      .set(s.admin.auth)
      .expect(200);
    expect(res.body.sso).toBe(true);
    await t.request
      .post(`${memberUrl(s.organizationId, s.reader.user.id)}/sso`)
      .set(s.admin.auth)
      .expect(200);
    const read = await t.request
      .get(memberUrl(s.organizationId, s.reader.user.id))
      .set(s.admin.auth)
      .expect(200);
    expect(read.body.sso).toBe(true);
    const other = await scenario();
    await joinOrganization(t, other.organizationId, s.editor, "read");
    await t.request
      .post(`${memberUrl(s.organizationId, s.editor.user.id)}/sso`)
      .set(s.admin.auth)
      .expect(409);
    await t.request
      .post(`${memberUrl(s.organizationId, s.editor.user.id)}/sso`)
      .set(s.reader.auth)
      .expect(403);
    await t.request
      .post(`${memberUrl(other.organizationId, other.reader.user.id)}/sso`)
      .set(s.admin.auth)
      .expect(404);
  });
});

describe("GET /v1/orgs/{organizationId}/members/{userId}/spaces", () => {
  it("lists the spaces a member reaches with their role; the count is Member.spaces", async () => {
    const s = await scenario();
    const collection = await buildCollection(t, { organization_id: s.organizationId });
    const inside = await buildSpace(t, { organization_id: s.organizationId, parent_id: collection.id });
    t.clock.advance(1);
    const top = await buildSpace(t, { organization_id: s.organizationId, default_level: "comment" });
    await buildSpace(t, { organization_id: s.organizationId, deleted_at: t.clock.now().toISOString() });
    const res = await t.request
      .get(`${memberUrl(s.organizationId, s.reader.user.id)}/spaces`)
      .set(s.reader.auth)
      .expect(200);
    expect(res.body.count).toBe(2);
    expect(res.body.items.map((i: { space: { id: string } }) => i.space.id)).toEqual([top.id, inside.id]);
    expect(res.body.items.map((i: { permission: string }) => i.permission)).toEqual(["comment", "read"]);
    const asc = await t.request
      .get(`${memberUrl(s.organizationId, s.reader.user.id)}/spaces?order=asc`)
      .set(s.admin.auth)
      .expect(200);
    expect(asc.body.items[0].space.id).toBe(inside.id);
    const member = await t.request
      .get(memberUrl(s.organizationId, s.reader.user.id))
      .set(s.admin.auth)
      .expect(200);
    expect(member.body.spaces).toBe(2);

    const guestSpaces = await t.request
      .get(`${memberUrl(s.organizationId, s.guest.user.id)}/spaces`)
      .set(s.admin.auth)
      .expect(200);
    expect(guestSpaces.body.count).toBe(0);
    await t.request
      .post(`/v1/collections/${collection.id}/permissions`)
      .set(s.admin.auth)
      .send({ users: [s.guest.user.id], role: "edit" })
      .expect(204);
    const granted = await t.request
      .get(`${memberUrl(s.organizationId, s.guest.user.id)}/spaces`)
      .set(s.guest.auth)
      .expect(200);
    expect(
      granted.body.items.map((i: { space: { id: string }; permission: string }) => [
        i.space.id,
        i.permission,
      ]),
    ).toEqual([[inside.id, "edit"]]);
    const guest = await t.request
      .get(memberUrl(s.organizationId, s.guest.user.id))
      .set(s.guest.auth)
      .expect(200);
    expect(guest.body.spaces).toBe(1);
  });

  it("answers 403 to another non-admin and 404", async () => {
    const s = await scenario();
    await t.request
      .get(`${memberUrl(s.organizationId, s.reader.user.id)}/spaces`)
      .set(s.editor.auth)
      .expect(403);
    const other = await scenario();
    await t.request
      .get(`${memberUrl(other.organizationId, other.reader.user.id)}/spaces`)
      .set(s.admin.auth)
      .expect(404);
    await t.request
      .get(`${memberUrl(s.organizationId, s.reader.user.id)}/spaces?order=up`)
      .set(s.admin.auth)
      .expect(400);
  });
});

describe("GET /v1/orgs/{organizationId}/members/{userId}/teams", () => {
  it("lists a member's teams with their role; the count is Member.teams", async () => {
    const s = await scenario();
    const teamsUrl = `/v1/orgs/${s.organizationId}/teams`;
    const alpha = await t.request
      .put(teamsUrl)
      .set(s.admin.auth)
      .send({ title: "Alpha", members: [s.reader.user.id] })
      .expect(201);
    const beta = await t.request.put(teamsUrl).set(s.admin.auth).send({ title: "Beta" }).expect(201);
    await t.request
      .put(`${teamsUrl}/${beta.body.id}/members/${s.reader.user.id}`)
      .set(s.admin.auth)
      .send({ role: "owner" })
      .expect(204);
    await t.request.put(teamsUrl).set(s.admin.auth).send({ title: "Gamma" }).expect(201);
    const res = await t.request
      .get(`${memberUrl(s.organizationId, s.reader.user.id)}/teams`)
      .set(s.editor.auth)
      .expect(200);
    expect(res.body.count).toBe(2);
    expect(
      res.body.items.map((i: { team: { id: string }; member: { role: string } }) => [
        i.team.id,
        i.member.role,
      ]),
    ).toEqual([
      [alpha.body.id, "member"],
      [beta.body.id, "owner"],
    ]);
    const filtered = await t.request
      .get(`${memberUrl(s.organizationId, s.reader.user.id)}/teams?title=ET`)
      .set(s.editor.auth)
      .expect(200);
    expect(filtered.body.items.map((i: { team: { id: string } }) => i.team.id)).toEqual([beta.body.id]);
    const member = await t.request
      .get(memberUrl(s.organizationId, s.reader.user.id))
      .set(s.admin.auth)
      .expect(200);
    expect(member.body.teams).toBe(2);
  });

  it("answers 403 to a guest, 404 and 400", async () => {
    const s = await scenario();
    await t.request
      .get(`${memberUrl(s.organizationId, s.reader.user.id)}/teams`)
      .set(s.guest.auth)
      .expect(403);
    const other = await scenario();
    await t.request
      .get(`${memberUrl(other.organizationId, other.reader.user.id)}/teams`)
      .set(s.admin.auth)
      .expect(404);
    await t.request
      .get(`${memberUrl(s.organizationId, s.reader.user.id)}/teams?limit=-1`)
      .set(s.admin.auth)
      .expect(400);
  });
});
