import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../auth/tokens.js";
import { buildOrganization } from "../testing/fixtures.js";
import { createTestApp, type TestApp } from "../testing/harness.js";
import { findUserByEmail } from "../users/store.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function scenario() {
  const s = await buildOrganization(t, { reader: "read", outsider: "outsider" });
  return {
    ...s,
    invitesUrl: `/v1/orgs/${s.organizationId}/invites`,
    linksUrl: `/v1/orgs/${s.organizationId}/link-invites`,
  };
}

const roleOf = async (organizationId: string, userId: string) =>
  await t.db
    .selectFrom("memberships")
    .select(["role", "sso"])
    .where("organization_id", "=", organizationId)
    .where("user_id", "=", userId)
    .executeTakeFirst();

describe("POST /v1/orgs/{organizationId}/invites", () => {
  it("adds known and unknown users with the role given or the organization's default", async () => {
    const s = await scenario();
    const res = await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({
        emails: [s.outsider.user.email.toUpperCase(), "New.Person@example.org", s.reader.user.email],
        role: "edit",
      })
      .expect(200);
    const created = await findUserByEmail(t.db, "new.person@example.org");
    expect(created?.display_name).toBe("new.person");
    expect(res.body).toEqual({ users: [s.outsider.user.id, created?.id], invited: 2 });
    expect(await roleOf(s.organizationId, s.outsider.user.id)).toEqual({ role: "edit", sso: 0 });
    expect(await roleOf(s.organizationId, s.reader.user.id)).toEqual({ role: "read", sso: 0 });
    const again = await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({ emails: ["new.person@example.org"] })
      .expect(200);
    expect(again.body).toEqual({ users: [], invited: 0 });
    const byDefault = await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({ emails: ["later@example.org"] })
      .expect(200);
    expect(await roleOf(s.organizationId, byDefault.body.users[0])).toEqual({ role: "read", sso: 0 });
    const members = await t.request.get(`/v1/orgs/${s.organizationId}/members`).set(s.admin.auth).expect(200);
    expect(members.body.count).toBe(5);
    // A user made by an invite has no token until one is issued (`quire token create --email`).
    if (!created) throw new Error("The invited user was not created");
    expect(
      await t.db.selectFrom("api_tokens").select("id").where("user_id", "=", created.id).execute(),
    ).toEqual([]);
    const token = await issueToken(t.db, t, created.id, "cli");
    const own = await t.request
      .get(`/v1/orgs/${s.organizationId}/members/${created.id}`)
      .set({ Authorization: `Bearer ${token}` })
      .expect(200);
    expect(own.body).toMatchObject({ role: "edit", user: { email: "new.person@example.org" } });
  });

  it("adds SSO members, except members of another organization", async () => {
    const s = await scenario();
    const other = await scenario();
    const res = await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({ emails: ["fresh@example.org", other.reader.user.email], sso: true })
      .expect(200);
    expect(res.body).toEqual({
      users: [expect.any(String), other.reader.user.id],
      invited: 2,
      failedSSOEmails: [other.reader.user.email],
    });
    expect(await roleOf(s.organizationId, res.body.users[0])).toMatchObject({ sso: 1 });
    expect(await roleOf(s.organizationId, other.reader.user.id)).toMatchObject({ sso: 0 });
  });

  it("answers 400, 403 and 404", async () => {
    const s = await scenario();
    await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({ emails: ["not-an-email"] })
      .expect(400);
    // The contract gives each address the email format: one with spaces around it is not one.
    const padded = await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({ emails: [" padded@example.org "] })
      .expect(400);
    expect(padded.body.error.message).toBe('body/emails/0 must match format "email"');
    await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({ emails: ["a@b.c"], role: "boss" })
      .expect(400);
    await t.request
      .post(s.invitesUrl)
      .set(s.reader.auth)
      .send({ emails: ["a@b.c"] })
      .expect(403);
    await t.request
      .post(s.invitesUrl)
      .set(s.outsider.auth)
      .send({ emails: ["a@b.c"] })
      .expect(404);
    expect(await findUserByEmail(t.db, "a@b.c")).toBeUndefined();
  });
});

describe("invite links", () => {
  it("creates, lists, gets, updates and deletes links", async () => {
    const s = await scenario();
    const created = await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: "comment" }).expect(201);
    expect(created.body).toEqual({
      object: "invite",
      id: expect.any(String),
      role: "comment",
      redundant: true,
    });
    expect(created.headers.location).toBe(`http://quire.test${s.linksUrl}/${created.body.id}`);
    t.clock.advance(1000);
    const second = await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: "edit" }).expect(201);
    const list = await t.request.get(s.linksUrl).set(s.admin.auth).expect(200);
    expect(list.body.count).toBe(2);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([second.body.id, created.body.id]);
    const updated = await t.request
      .patch(`${s.linksUrl}/${created.body.id}`)
      .set(s.admin.auth)
      .send({ role: "review" })
      .expect(200);
    expect(updated.body.role).toBe("review");
    const read = await t.request.get(`${s.linksUrl}/${created.body.id}`).set(s.admin.auth).expect(200);
    expect(read.body.role).toBe("review");
    await t.request
      .patch(`${s.linksUrl}/${created.body.id}`)
      .set(s.admin.auth)
      .send({ level: "edit" })
      .expect(400);
    await t.request.delete(`${s.linksUrl}/${created.body.id}`).set(s.admin.auth).expect(204);
    await t.request.get(`${s.linksUrl}/${created.body.id}`).set(s.admin.auth).expect(404);
    await t.request.post(`${s.invitesUrl}/${created.body.id}`).set(s.outsider.auth).expect(404);
  });

  it("answers 403, 404, 400, and 412 while invite links are off", async () => {
    const s = await scenario();
    const other = await scenario();
    const link = await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: "edit" }).expect(201);
    await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: "owner" }).expect(400);
    await t.request.post(s.linksUrl).set(s.reader.auth).send({ role: "edit" }).expect(403);
    await t.request.get(s.linksUrl).set(s.reader.auth).expect(403);
    await t.request.delete(`${s.linksUrl}/${link.body.id}`).set(s.reader.auth).expect(403);
    await t.request.get(s.linksUrl).set(other.admin.auth).expect(404);
    await t.request.get(`${s.linksUrl}/${link.body.id}`).set(other.admin.auth).expect(404);
    await t.request.get(`${other.linksUrl}/${link.body.id}`).set(other.admin.auth).expect(404);
    await t.request
      .patch(`${s.linksUrl}/${link.body.id}`)
      .set(other.admin.auth)
      .send({ role: "read" })
      .expect(404);
    await t.db
      .updateTable("organizations")
      .set({ invite_links: 0 })
      .where("id", "=", s.organizationId)
      .execute();
    await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: "edit" }).expect(412);
    await t.request.post(`${s.invitesUrl}/${link.body.id}`).set(s.outsider.auth).expect(412);
    const list = await t.request.get(s.linksUrl).set(s.admin.auth).expect(200);
    expect(list.body.count).toBe(1);
    await t.request.delete(`${s.linksUrl}/${link.body.id}`).set(s.admin.auth).expect(204);
  });
});

describe("POST /v1/orgs/{organizationId}/invites/{inviteId}", () => {
  it("joins once, raises a lower role, never lowers one; redundant follows", async () => {
    const s = await scenario();
    const link = await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: "edit" }).expect(201);
    const joinUrl = `${s.invitesUrl}/${link.body.id}`;
    await t.request.post(joinUrl).set(s.outsider.auth).expect(200, {});
    await t.request.post(joinUrl).set(s.outsider.auth).expect(200, {});
    expect(await roleOf(s.organizationId, s.outsider.user.id)).toMatchObject({ role: "edit" });
    const rows = await t.db
      .selectFrom("memberships")
      .select("user_id")
      .where("user_id", "=", s.outsider.user.id)
      .execute();
    expect(rows).toHaveLength(1);
    await t.request.post(joinUrl).set(s.reader.auth).expect(200);
    expect(await roleOf(s.organizationId, s.reader.user.id)).toMatchObject({ role: "edit" });
    await t.request.post(joinUrl).set(s.admin.auth).expect(200);
    expect(await roleOf(s.organizationId, s.admin.user.id)).toMatchObject({ role: "admin" });
    await t.request.post(`${s.invitesUrl}/unknown`).set(s.outsider.auth).expect(404);

    // `redundant` is per caller: false for a member with a lower role, true once they joined.
    const member = await t.user({ organizationId: s.organizationId, role: "comment" });
    const before = await t.request.get(`${s.linksUrl}/${link.body.id}`).set(member.auth).expect(200);
    expect(before.body.redundant).toBe(false);
    await t.request.post(joinUrl).set(member.auth).expect(200);
    const after = await t.request.get(`${s.linksUrl}/${link.body.id}`).set(member.auth).expect(200);
    expect(after.body.redundant).toBe(true);
  });
});
