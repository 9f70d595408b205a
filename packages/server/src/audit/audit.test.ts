import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken, revokeToken } from "../auth/tokens.js";
import { createJobRunner } from "../jobs/runner.js";
import { buildOrganization } from "../testing/fixtures.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import { loopbackOnly, serverJobRunner } from "../testing/jobs.js";
import { auditTasks } from "./tasks.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** supertest's client, as the server's socket sees it (IPv4, or IPv4 mapped into IPv6). */
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$/;

async function scenario() {
  const s = await buildOrganization(t, { reader: "read", outsider: "outsider" });
  const base = `/v1/orgs/${s.organizationId}`;
  return { ...s, base, audit: `${base}/audit-events` };
}

const tokenIdOf = async (user: TestUser) =>
  (
    await t.db
      .selectFrom("api_tokens")
      .select("id")
      .where("user_id", "=", user.user.id)
      .executeTakeFirstOrThrow()
  ).id;

describe("the audit log", () => {
  it("lists an organization's changes newest first, with actor, token, address and target; gets one", async () => {
    const s = await scenario();
    const space = await t.request
      .post(`${s.base}/spaces`)
      .set(s.admin.auth)
      .send({ title: "Guides" })
      .expect(201);
    t.clock.advance(1000);
    await t.request
      .patch(`/v1/spaces/${space.body.id}`)
      .set(s.admin.auth)
      .send({ title: "Handbook" })
      .expect(200);

    const list = await t.request.get(`${s.audit}?limit=2`).set(s.admin.auth).expect(200);
    const [updated, created] = list.body.items;
    expect(updated).toEqual({
      object: "audit-event",
      id: expect.any(String),
      occurredAt: t.clock.now().toISOString(),
      action: "space.updated",
      actor: {
        type: "user",
        id: s.admin.user.id,
        token: await tokenIdOf(s.admin),
        address: expect.stringMatching(LOOPBACK),
      },
      source: "api",
      target: { type: "space", id: space.body.id, label: "Handbook" },
      urls: { location: `http://quire.test${s.audit}/${updated.id}` },
    });
    expect(created).toMatchObject({
      action: "space.created",
      target: { id: space.body.id, label: "Guides" },
    });
    expect(list.body.next).toBeDefined();

    // The page after: older entries (the reader joining, their token), none twice.
    const rest = await t.request
      .get(`${s.audit}?limit=50&page=${list.body.next.page}`)
      .set(s.admin.auth)
      .expect(200);
    const actions = rest.body.items.map((item: { action: string }) => item.action);
    expect(actions).toContain("member.joined");
    expect(actions).toContain("token.created");
    expect(rest.body.count).toBe(list.body.count);
    expect(rest.body.items.map((i: { id: string }) => i.id)).not.toContain(updated.id);
    // Recorded from outside a request (the command line): the server's own, without token or address.
    const token = rest.body.items.find((item: { action: string }) => item.action === "token.created");
    expect(token).toMatchObject({
      actor: { type: "system", id: "system" },
      source: "system",
      target: { type: "token", id: await tokenIdOf(s.reader), label: "test" },
    });
    expect(token.actor.token).toBeUndefined();

    const one = await t.request.get(`${s.audit}/${updated.id}`).set(s.admin.auth).expect(200);
    expect(one.body).toEqual({
      ...updated,
      schemaVersion: 1,
      payload: { space: space.body.id, title: "Handbook", visibility: "private", changes: ["title"] },
    });
  });

  it("filters by action, actor, target and time", async () => {
    const s = await scenario();
    const start = t.clock.now().toISOString();
    const one = await t.request.post(`${s.base}/spaces`).set(s.admin.auth).send({ title: "One" }).expect(201);
    t.clock.advance(60_000);
    const middle = t.clock.now().toISOString();
    const two = await t.request.post(`${s.base}/spaces`).set(s.admin.auth).send({ title: "Two" }).expect(201);
    await t.request.patch(`/v1/spaces/${two.body.id}`).set(s.admin.auth).send({ title: "Deux" }).expect(200);

    const ids = async (query: string) => {
      const res = await t.request.get(`${s.audit}?${query}`).set(s.admin.auth).expect(200);
      expect(res.body.count).toBe(res.body.items.length);
      return res.body.items.map(
        (i: { action: string; target: { id: string } }) => `${i.action} ${i.target.id}`,
      );
    };
    expect(await ids("action=space.created")).toEqual([
      `space.created ${two.body.id}`,
      `space.created ${one.body.id}`,
    ]);
    expect(await ids(`target=${two.body.id}`)).toEqual([
      `space.updated ${two.body.id}`,
      `space.created ${two.body.id}`,
    ]);
    expect(await ids(`action=space.created&from=${encodeURIComponent(middle)}`)).toEqual([
      `space.created ${two.body.id}`,
    ]);
    expect(await ids(`action=space.created&from=${start}&to=${encodeURIComponent(start)}`)).toEqual([
      `space.created ${one.body.id}`,
    ]);
    // Another time zone names the same instant.
    const startAtPlusTwo = new Date(Date.parse(start) + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    expect(await ids(`action=space.created&to=${encodeURIComponent(startAtPlusTwo)}`)).toEqual([
      `space.created ${one.body.id}`,
    ]);
    const byAdmin = await ids(`actor=${s.admin.user.id}`);
    expect(byAdmin.slice(0, 3)).toEqual([
      `space.updated ${two.body.id}`,
      `space.created ${two.body.id}`,
      `space.created ${one.body.id}`,
    ]);
    expect(await ids(`actor=${s.reader.user.id}`)).toEqual([]);
    // Paging a filtered list.
    const first = await t.request
      .get(`${s.audit}?actor=${s.admin.user.id}&limit=2`)
      .set(s.admin.auth)
      .expect(200);
    const second = await t.request
      .get(`${s.audit}?actor=${s.admin.user.id}&limit=2&page=${first.body.next.page}`)
      .set(s.admin.auth)
      .expect(200);
    expect(second.body.items.map((i: { target: { id: string } }) => i.target.id)[0]).toBe(one.body.id);
  });

  it("lists the actions, each named by an event type", async () => {
    const s = await scenario();
    const res = await t.request.get(`${s.base}/audit-event-actions`).set(s.admin.auth).expect(200);
    const actions = res.body.items.map((a: { id: string }) => a.id);
    expect(res.body.items[0]).toEqual({
      object: "audit-event-action",
      id: "space.created",
      label: "Space created",
    });
    for (const action of [
      "token.created",
      "token.revoked",
      "sign_in.failed",
      "permission.granted",
      "saml_provider.updated",
    ])
      expect(actions).toContain(action);
    expect(new Set(actions).size).toBe(actions.length);
  });

  it("answers 401, 403 for non-admins, 404 for another organization or event, 400 for a bad query", async () => {
    const s = await scenario();
    const other = await scenario();
    const [entry] = (await t.request.get(s.audit).set(s.admin.auth).expect(200)).body.items;
    const operations = [s.audit, `${s.audit}/${entry.id}`, `${s.base}/audit-event-actions`];
    for (const url of operations) {
      await t.request.get(url).expect(401);
      await t.request.get(url).set(s.reader.auth).expect(403);
      await t.request.get(url).set(s.outsider.auth).expect(404);
      await t.request.get(url).set(other.admin.auth).expect(404);
    }
    await t.request.get(`${other.audit}/${entry.id}`).set(other.admin.auth).expect(404);
    await t.request.get(`${s.audit}/unknown`).set(s.admin.auth).expect(404);
    for (const query of [
      "action=space.exploded",
      "from=yesterday",
      "from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z",
      "page=forged",
      "limit=-1",
    ])
      await t.request.get(`${s.audit}?${query}`).set(s.admin.auth).expect(400);
  });
});

describe("security events", () => {
  /** The organization's newest audit entry of `action`. */
  const latest = async (s: { audit: string; admin: TestUser }, action: string) =>
    (await t.request.get(`${s.audit}?action=${action}`).set(s.admin.auth).expect(200)).body.items[0];

  it("records tokens created and revoked in every organization of their user", async () => {
    const s = await scenario();
    const other = await scenario();
    await t.db
      .insertInto("memberships")
      .values({
        organization_id: other.organizationId,
        user_id: s.reader.user.id,
        role: "read",
        joined_at: t.clock.now().toISOString(),
      })
      .execute();
    await issueToken(t.db, t, s.reader.user.id, "ci");
    const tokenId = (
      await t.db
        .selectFrom("api_tokens")
        .select("id")
        .where("label", "=", "ci")
        .where("user_id", "=", s.reader.user.id)
        .executeTakeFirstOrThrow()
    ).id;
    for (const org of [s, other])
      expect(await latest(org, "token.created")).toMatchObject({
        actor: { type: "system" },
        target: { type: "token", id: tokenId, label: "ci" },
      });
    expect(await revokeToken(t.db, t, tokenId)).toBe(true);
    const revoked = await latest(s, "token.revoked");
    const details = await t.request.get(`${s.audit}/${revoked.id}`).set(s.admin.auth).expect(200);
    expect(details.body.payload).toEqual({ token: tokenId, label: "ci", user: s.reader.user.id });
    expect(await latest(other, "token.revoked")).toMatchObject({ target: { id: tokenId } });
  });

  it("records permissions granted and removed, and SAML providers changed, with token and address", async () => {
    const s = await scenario();
    const space = await t.request
      .post(`${s.base}/spaces`)
      .set(s.admin.auth)
      .send({ title: "Secret" })
      .expect(201);
    const permission = `/v1/spaces/${space.body.id}/permissions/users/${s.reader.user.id}`;
    const origin = {
      type: "user",
      id: s.admin.user.id,
      token: await tokenIdOf(s.admin),
      address: expect.stringMatching(LOOPBACK),
    };

    await t.request.patch(permission).set(s.admin.auth).send({ role: "edit" }).expect(204);
    // The same role again changes nothing, and records nothing.
    await t.request.patch(permission).set(s.admin.auth).send({ role: "edit" }).expect(204);
    await t.request.patch(permission).set(s.admin.auth).send({ role: "comment" }).expect(204);
    await t.request.patch(permission).set(s.admin.auth).send({ role: null }).expect(204);
    const grants = (await t.request.get(`${s.audit}?target=${space.body.id}`).set(s.admin.auth).expect(200))
      .body.items;
    expect(grants.map((g: { action: string }) => g.action)).toEqual([
      "permission.removed",
      "permission.granted",
      "permission.granted",
      "space.created",
    ]);
    expect(grants[0].actor).toEqual(origin);
    const payloads = await Promise.all(
      grants
        .slice(0, 3)
        .map(
          async (g: { id: string }) =>
            (await t.request.get(`${s.audit}/${g.id}`).set(s.admin.auth)).body.payload,
        ),
    );
    expect(payloads).toEqual([
      { space: space.body.id, user: s.reader.user.id, role: "comment" },
      { space: space.body.id, user: s.reader.user.id, role: "comment", previousRole: "edit" },
      { space: space.body.id, user: s.reader.user.id, role: "edit" },
    ]);

    const saml = `${s.base}/saml`;
    const provider = await t.request.post(saml).set(s.admin.auth).send({ label: "Okta" }).expect(201);
    await t.request
      .patch(`${saml}/${provider.body.id}`)
      .set(s.admin.auth)
      .send({ label: "Okta", ssoURL: "https://idp.example.com/sso" })
      .expect(200);
    await t.request.delete(`${saml}/${provider.body.id}`).set(s.admin.auth).expect(204);
    const providers = (
      await t.request.get(`${s.audit}?target=${provider.body.id}`).set(s.admin.auth).expect(200)
    ).body.items;
    expect(providers.map((p: { action: string; actor: unknown }) => [p.action, p.actor])).toEqual([
      ["saml_provider.deleted", origin],
      ["saml_provider.updated", origin],
      ["saml_provider.created", origin],
    ]);
    const updated = await t.request.get(`${s.audit}/${providers[1].id}`).set(s.admin.auth).expect(200);
    expect(updated.body.payload).toEqual({ provider: provider.body.id, label: "Okta", changes: ["ssoURL"] });
  });

  it("records a failed sign-in in the organization the path names, else apart by time and address", async () => {
    const s = await scenario();
    await t.request.get(`${s.base}/spaces`).set({ Authorization: "Bearer quire_forged" }).expect(401);
    // No token at all is an anonymous call, not a sign-in.
    await t.request.get(`${s.base}/spaces`).expect(401);
    const entries = (await t.request.get(`${s.audit}?action=sign_in.failed`).set(s.admin.auth).expect(200))
      .body.items;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { type: "anonymous", id: "anonymous", address: expect.stringMatching(LOOPBACK) },
      source: "api",
      target: { type: "organization", id: s.organizationId },
    });
    expect(entries[0].actor.token).toBeUndefined();
    const details = await t.request.get(`${s.audit}/${entries[0].id}`).set(s.admin.auth).expect(200);
    expect(details.body.payload).toEqual({ operation: "listSpacesInOrganizationById" });

    const before = await t.db.selectFrom("failed_sign_ins").selectAll().execute();
    await t.request.get("/v1/user").set({ Authorization: "Bearer quire_forged" }).expect(401);
    await t.request.get("/v1/orgs/unknown/spaces").set({ Authorization: "Bearer nope" }).expect(401);
    const after = await t.db.selectFrom("failed_sign_ins").selectAll().execute();
    expect(after.slice(before.length)).toEqual([
      { occurred_at: t.clock.now().toISOString(), address: expect.stringMatching(LOOPBACK) },
      { occurred_at: t.clock.now().toISOString(), address: expect.stringMatching(LOOPBACK) },
    ]);
  });
});

describe("retention", () => {
  it("deletes events and failed sign-ins older than the retention, daily", async () => {
    const s = await scenario();
    const old = await t.request.post(`${s.base}/spaces`).set(s.admin.auth).send({ title: "Old" }).expect(201);
    await t.request.get("/v1/user").set({ Authorization: "Bearer quire_old" }).expect(401);
    t.clock.advance(20 * 24 * 60 * 60 * 1000);
    const recent = await t.request
      .post(`${s.base}/spaces`)
      .set(s.admin.auth)
      .send({ title: "Recent" })
      .expect(201);
    const jobs = createJobRunner({ db: t.db, clock: t.clock, ids: t.ids, tasks: auditTasks(10) });
    await jobs.runUntilIdle();

    const targets = (
      await t.request.get(`${s.audit}?action=space.created`).set(s.admin.auth).expect(200)
    ).body.items.map((i: { target: { id: string } }) => i.target.id);
    expect(targets).toEqual([recent.body.id]);
    expect(targets).not.toContain(old.body.id);
    const cutoff = new Date(t.clock.now().getTime() - 10 * 24 * 60 * 60 * 1000).toISOString();
    const kept = await t.db
      .selectFrom("failed_sign_ins")
      .select("occurred_at")
      .where("occurred_at", "<", cutoff)
      .execute();
    expect(kept).toEqual([]);
    // Numbers go on after the deleted ones: the next event is not numbered again from 1.
    const sequences = await t.db
      .selectFrom("events")
      .select("sequence")
      .where("organization_id", "=", s.organizationId)
      .execute();
    expect(Math.min(...sequences.map((r) => Number(r.sequence)))).toBeGreaterThan(1);
  });

  it("keeps an event a webhook may still send, past the retention", async () => {
    const s = await scenario();
    const hook = await t.request
      .post(`${s.base}/webhooks`)
      .set(s.admin.auth)
      // Nothing listens on the discard port: every attempt fails, and the delivery stays pending.
      .send({ url: "http://127.0.0.1:9/hook", events: ["space_created"] })
      .expect(201);
    const pending = await t.request
      .post(`${s.base}/spaces`)
      .set(s.admin.auth)
      .send({ title: "Pending" })
      .expect(201);
    const webhooks = serverJobRunner(t, loopbackOnly);
    await webhooks.runUntilIdle();
    const deliveries = await t.request
      .get(`${s.base}/webhooks/${hook.body.id}/deliveries`)
      .set(s.admin.auth)
      .expect(200);
    expect(deliveries.body.items.map((d: { status: string }) => d.status)).toEqual(["pending"]);
    await t.request
      .patch(`${s.base}/webhooks/${hook.body.id}`)
      .set(s.admin.auth)
      .send({ active: false })
      .expect(200);

    t.clock.advance(20 * 24 * 60 * 60 * 1000);
    await createJobRunner({ db: t.db, clock: t.clock, ids: t.ids, tasks: auditTasks(10) }).runUntilIdle();
    const created = (
      await t.request.get(`${s.audit}?action=space.created`).set(s.admin.auth).expect(200)
    ).body.items.map((i: { target: { id: string } }) => i.target.id);
    expect(created).toEqual([pending.body.id]);
    // What no webhook waits for went: the webhook's own creation, for one.
    const all = (await t.request.get(s.audit).set(s.admin.auth).expect(200)).body.items;
    expect(all.map((i: { action: string }) => i.action)).not.toContain("member.joined");
  });
});
