import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../auth/tokens.js";
import { buildCollection, buildSpace } from "../testing/factories.js";
import { buildOrganization } from "../testing/fixtures.js";
import { type GitBookAnswer as Answer, serveToGitBookClient } from "../testing/gitbook-client.js";
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

const grantsOf = (userId: string) =>
  t.db
    .selectFrom("content_permissions")
    .select(["content_id", "role"])
    .where("user_id", "=", userId)
    .orderBy("content_id")
    .execute();

describe("guests and per-invitee roles (GitBook's MemberRoleOrGuest)", () => {
  it("invites by email with a role each, a null role making a guest, and the request's role for the rest", async () => {
    const s = await scenario();
    const res = await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({
        emails: [
          "plain@example.org",
          { email: "Editor@example.org", role: "edit" },
          { email: "guest@example.org", role: null },
          "plain@example.org",
        ],
        role: "comment",
      })
      .expect(200);
    expect(res.body.invited).toBe(3);
    const [plain, editor, guest] = res.body.users as string[];
    expect(await roleOf(s.organizationId, plain as string)).toMatchObject({ role: "comment" });
    expect(await roleOf(s.organizationId, editor as string)).toMatchObject({ role: "edit" });
    expect(await roleOf(s.organizationId, guest as string)).toMatchObject({ role: null });
    const member = await t.request
      .get(`/v1/orgs/${s.organizationId}/members/${editor}`)
      .set(s.admin.auth)
      .expect(200);
    expect(member.body.user.email).toBe("editor@example.org");

    const guests = await t.request
      .post(s.invitesUrl)
      .set(s.admin.auth)
      .send({ emails: ["g1@example.org", { email: "r1@example.org", role: "read" }], role: null })
      .expect(200);
    const [g1, r1] = guests.body.users as string[];
    expect(await roleOf(s.organizationId, g1 as string)).toMatchObject({ role: null });
    expect(await roleOf(s.organizationId, r1 as string)).toMatchObject({ role: "read" });
  });

  it("answers 400 for a bad invitee, or one listed twice with different roles, and adds no one", async () => {
    const s = await scenario();
    const refused = async (emails: unknown[], message?: string) => {
      const res = await t.request.post(s.invitesUrl).set(s.admin.auth).send({ emails }).expect(400);
      if (message) expect(res.body.error.message).toBe(message);
    };
    await refused([{ email: "x@example.org" }]);
    await refused([{ email: "x@example.org", role: "boss" }]);
    await refused([{ email: "not-an-email", role: "read" }]);
    await refused(
      ["x@example.org", { email: "X@example.org", role: "edit" }],
      "X@example.org is listed twice, with different roles.",
    );
    expect(await findUserByEmail(t.db, "x@example.org")).toBeUndefined();
  });

  it("creates, updates and joins an invite link to the organization as a guest", async () => {
    const s = await scenario();
    const link = await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: null }).expect(201);
    expect(link.body).toEqual({ object: "invite", id: link.body.id, role: null, redundant: true });
    const joinUrl = `${s.invitesUrl}/${link.body.id}`;
    await t.request.post(joinUrl).set(s.outsider.auth).expect(200);
    expect(await roleOf(s.organizationId, s.outsider.user.id)).toMatchObject({ role: null });
    // A member keeps their role: a guest's is the least.
    await t.request.post(joinUrl).set(s.reader.auth).expect(200);
    expect(await roleOf(s.organizationId, s.reader.user.id)).toMatchObject({ role: "read" });

    const editLink = await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: "edit" }).expect(201);
    const toGuest = await t.request
      .patch(`${s.linksUrl}/${editLink.body.id}`)
      .set(s.admin.auth)
      .send({ role: null })
      .expect(200);
    expect(toGuest.body.role).toBeNull();
    const read = await t.request.get(`${s.linksUrl}/${editLink.body.id}`).set(s.reader.auth).expect(200);
    expect(read.body).toEqual({ object: "invite", id: editLink.body.id, role: null, redundant: true });
  });

  it("gives the organization's default role to a link created without one", async () => {
    const s = await scenario();
    await t.db
      .updateTable("organizations")
      .set({ default_role: "comment" })
      .where("id", "=", s.organizationId)
      .execute();
    const link = await t.request.post(s.linksUrl).set(s.admin.auth).send({}).expect(201);
    expect(link.body.role).toBe("comment");
    const read = await t.request.get(`${s.linksUrl}/${link.body.id}`).set(s.admin.auth).expect(200);
    expect(read.body.role).toBe("comment");
  });
});

describe("invite links to a space or a collection", () => {
  async function contentScenario() {
    const s = await scenario();
    const collection = await buildCollection(t, { organization_id: s.organizationId });
    const inside = await buildSpace(t, { organization_id: s.organizationId, parent_id: collection.id });
    const space = await buildSpace(t, { organization_id: s.organizationId, title: "Handbook" });
    return { ...s, collection, inside, space };
  }

  it("creates, reads, updates and deletes a space link; it is not listed with the organization's", async () => {
    const s = await contentScenario();
    const orgLink = await t.request.post(s.linksUrl).set(s.admin.auth).send({ role: "read" }).expect(201);
    const created = await t.request
      .post(s.linksUrl)
      .set(s.admin.auth)
      .send({ level: "edit", space: s.space.id })
      .expect(201);
    expect(created.body).toMatchObject({
      object: "invite",
      level: "edit",
      redundant: true,
      space: { object: "space", id: s.space.id, title: "Handbook" },
    });
    expect(created.body).not.toHaveProperty("role");
    expect(created.headers.location).toBe(`http://quire.test${s.linksUrl}/${created.body.id}`);
    const url = `${s.linksUrl}/${created.body.id}`;
    const asReader = await t.request.get(url).set(s.reader.auth).expect(200);
    expect(asReader.body).toMatchObject({ level: "edit", redundant: false, space: { id: s.space.id } });
    const list = await t.request.get(s.linksUrl).set(s.admin.auth).expect(200);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([orgLink.body.id]);

    const updated = await t.request.patch(url).set(s.admin.auth).send({ level: "comment" }).expect(200);
    expect(updated.body).toMatchObject({ level: "comment", space: { id: s.space.id } });
    expect((await t.request.get(url).set(s.admin.auth).expect(200)).body.level).toBe("comment");
    const wrong = await t.request.patch(url).set(s.admin.auth).send({ role: "edit" }).expect(400);
    expect(wrong.body.error.message).toBe("An invite to a space or collection has a `level`, not a `role`.");
    await t.request.patch(url).set(s.admin.auth).send({ level: null }).expect(400);
    await t.request.patch(url).set(s.reader.auth).send({ level: "admin" }).expect(403);
    expect((await t.request.get(url).set(s.admin.auth).expect(200)).body.level).toBe("comment");
    await t.request.delete(url).set(s.admin.auth).expect(204);
    await t.request.get(url).set(s.admin.auth).expect(404);
  });

  it("makes a non-member a guest with the level on the space; raises a member's lower level only", async () => {
    const s = await contentScenario();
    const link = await t.request
      .post(s.linksUrl)
      .set(s.admin.auth)
      .send({ level: "edit", space: s.space.id })
      .expect(201);
    const joinUrl = `${s.invitesUrl}/${link.body.id}`;
    await t.request.get(`/v1/spaces/${s.space.id}`).set(s.outsider.auth).expect(404);
    await t.request.post(joinUrl).set(s.outsider.auth).expect(200, {});
    expect(await roleOf(s.organizationId, s.outsider.user.id)).toMatchObject({ role: null });
    expect(await grantsOf(s.outsider.user.id)).toEqual([{ content_id: s.space.id, role: "edit" }]);
    const seen = await t.request.get(`/v1/spaces/${s.space.id}`).set(s.outsider.auth).expect(200);
    expect(seen.body.permissions.edit).toBe(true);
    // Now redundant to the guest, who still sees no other space.
    const again = await t.request.get(`${s.linksUrl}/${link.body.id}`).set(s.outsider.auth).expect(200);
    expect(again.body.redundant).toBe(true);
    await t.request.get(`/v1/spaces/${s.inside.id}`).set(s.outsider.auth).expect(404);

    await t.request.post(joinUrl).set(s.reader.auth).expect(200);
    expect(await roleOf(s.organizationId, s.reader.user.id)).toMatchObject({ role: "read" });
    expect(await grantsOf(s.reader.user.id)).toEqual([{ content_id: s.space.id, role: "edit" }]);
    await t.request.post(joinUrl).set(s.admin.auth).expect(200);
    expect(await grantsOf(s.admin.user.id)).toEqual([]);
  });

  it("gives the level on a collection and the spaces in it", async () => {
    const s = await contentScenario();
    const link = await t.request
      .post(s.linksUrl)
      .set(s.admin.auth)
      .send({ level: "comment", collection: s.collection.id })
      .expect(201);
    expect(link.body).toMatchObject({
      object: "invite",
      level: "comment",
      redundant: true,
      collection: { object: "collection", id: s.collection.id },
    });
    await t.request.post(`${s.invitesUrl}/${link.body.id}`).set(s.outsider.auth).expect(200);
    expect(await roleOf(s.organizationId, s.outsider.user.id)).toMatchObject({ role: null });
    expect(await grantsOf(s.outsider.user.id)).toEqual([{ content_id: s.collection.id, role: "comment" }]);
    const inside = await t.request.get(`/v1/spaces/${s.inside.id}`).set(s.outsider.auth).expect(200);
    expect(inside.body.permissions).toMatchObject({ comment: true, edit: false });
    await t.request.get(`/v1/spaces/${s.space.id}`).set(s.outsider.auth).expect(404);
    const read = await t.request.get(`${s.linksUrl}/${link.body.id}`).set(s.outsider.auth).expect(200);
    expect(read.body).toMatchObject({
      level: "comment",
      redundant: true,
      collection: { id: s.collection.id },
    });
  });

  it("answers 400 for a mixed or levelless body, 403, 404 for content elsewhere and 409 for a deleted space", async () => {
    const s = await contentScenario();
    const other = await scenario();
    const elsewhere = await buildSpace(t, { organization_id: other.organizationId });
    const deleted = await buildSpace(t, {
      organization_id: s.organizationId,
      deleted_at: t.clock.now().toISOString(),
    });
    const create = (body: object, status: number) =>
      t.request.post(s.linksUrl).set(s.admin.auth).send(body).expect(status);
    const message = async (body: object) => (await create(body, 400)).body.error.message;
    expect(await message({ level: null, space: s.space.id })).toBe(
      "An invite to a space or collection needs a `level`: a null level would give nothing there.",
    );
    expect(await message({ level: "edit" })).toBe(
      "A `level` is given on a `space` or a `collection`: name one.",
    );
    const several =
      "An invite is to the organization (`role`), a space or a collection (`level`): not to several.";
    expect(await message({ role: "edit", level: "edit", space: s.space.id })).toBe(several);
    expect(await message({ level: "edit", space: s.space.id, collection: s.collection.id })).toBe(several);
    expect(await message({ level: "boss", space: s.space.id })).toBe(
      "`level` must be one of read, comment, edit, review, create, admin.",
    );
    expect(await message({ level: "edit", collection: 7 })).toBe("`space` and `collection` are ids.");
    await create({ level: "edit", space: elsewhere.id }, 404);
    await create({ level: "edit", collection: "missing" }, 404);
    await create({ level: "edit", space: deleted.id }, 409);
    await t.request
      .post(s.linksUrl)
      .set(s.reader.auth)
      .send({ level: "read", space: s.space.id })
      .expect(403);
    expect(
      await t.db
        .selectFrom("invite_links")
        .select("id")
        .where("organization_id", "=", s.organizationId)
        .execute(),
    ).toEqual([]);

    // A link whose space went to the bin cannot be used until the space is restored.
    const link = await create({ level: "edit", space: s.space.id }, 201);
    await t.db
      .updateTable("spaces")
      .set({ deleted_at: t.clock.now().toISOString() })
      .where("id", "=", s.space.id)
      .execute();
    await t.request.post(`${s.invitesUrl}/${link.body.id}`).set(s.outsider.auth).expect(409);
    expect(await roleOf(s.organizationId, s.outsider.user.id)).toBeUndefined();
  });
});

/** What the test calls of GitBook's client, typed by our contract. */
interface GitBookOrgs {
  orgs: {
    inviteUsersToOrganization(
      organizationId: string,
      data: Omit<Schema<"InviteUsersRequest">, "sso"> & { sso?: boolean },
    ): Answer<Schema<"InviteUsersResponse">>;
    createOrganizationInvite(
      organizationId: string,
      data: Schema<"CreateInviteRequest">,
    ): Answer<Schema<"InviteLink">>;
    getOrganizationInviteLink(organizationId: string, inviteId: string): Answer<Schema<"InviteLink">>;
    updateOrganizationInviteById(
      organizationId: string,
      inviteId: string,
      data: Schema<"UpdateInviteRequest">,
    ): Answer<Schema<"InviteLink">>;
    joinOrganizationWithInvite(organizationId: string, inviteId: string): Answer<object>;
  };
}

describe("GitBook's own client on invites", () => {
  let served: Awaited<ReturnType<typeof serveToGitBookClient>>;
  beforeAll(async () => {
    served = await serveToGitBookClient(t.app);
  });
  afterAll(() => served.close());

  const client = (authToken: string) => served.client<GitBookOrgs>(authToken);

  it("sends guests, per-invitee roles and content links, and reads GitBook's shapes back", async () => {
    const s = await scenario();
    const space = await buildSpace(t, { organization_id: s.organizationId, title: "Guide" });
    const admin = client(s.admin.token).orgs;

    const invited = await admin.inviteUsersToOrganization(s.organizationId, {
      emails: ["one@example.org", { email: "two@example.org", role: null }],
      role: "review",
    });
    expect(invited.data.invited).toBe(2);
    const [one, two] = invited.data.users;
    expect(await roleOf(s.organizationId, one as string)).toMatchObject({ role: "review" });
    expect(await roleOf(s.organizationId, two as string)).toMatchObject({ role: null });

    const guestLink = await admin.createOrganizationInvite(s.organizationId, { role: null });
    expect(guestLink.data).toEqual({ object: "invite", id: guestLink.data.id, role: null, redundant: true });
    const spaceLink = await admin.createOrganizationInvite(s.organizationId, {
      level: "edit",
      space: space.id,
    });
    expect(spaceLink.data).toMatchObject({
      level: "edit",
      redundant: true,
      space: { id: space.id, title: "Guide" },
    });
    const changed = await admin.updateOrganizationInviteById(s.organizationId, spaceLink.data.id, {
      level: "review",
    });
    expect(changed.data).toMatchObject({ level: "review", space: { id: space.id } });

    await client(s.outsider.token).orgs.joinOrganizationWithInvite(s.organizationId, spaceLink.data.id);
    expect(await roleOf(s.organizationId, s.outsider.user.id)).toMatchObject({ role: null });
    expect(await grantsOf(s.outsider.user.id)).toEqual([{ content_id: space.id, role: "review" }]);
    const asGuest = await client(s.outsider.token).orgs.getOrganizationInviteLink(
      s.organizationId,
      spaceLink.data.id,
    );
    expect(asGuest.data).toMatchObject({ level: "review", redundant: true, space: { id: space.id } });
  });
});
