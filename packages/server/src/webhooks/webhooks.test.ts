import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Schema } from "@quire/api-types";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { numberEvents } from "../events/numbering.js";
import { lastSequenceOf } from "../events/read.js";
import { type EventData, type EventType, recordEvent } from "../events/record.js";
import type { JobRunner } from "../jobs/runner.js";
import { buildSpace } from "../testing/factories.js";
import { buildOrganization } from "../testing/fixtures.js";
import { createTestApp, type TestApp } from "../testing/harness.js";
import { loopbackOnly, serverJobRunner } from "../testing/jobs.js";

const SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

/** What the receiver was sent, in order. */
interface Received {
  path: string;
  headers: Record<string, string>;
  body: Schema<"WebhookEvent">;
  /** Whether `standardwebhooks` verified it with the webhook's secret. */
  verified: boolean;
}

let t: TestApp;
let jobs: JobRunner;
let receiver: Server;
let origin: string;
/** A server on 127.0.0.2, an address the policy does not allow: it must never be reached. */
let forbidden: Server | undefined;
let forbiddenHits = 0;
const received: Received[] = [];
/** The status each path of the receiver answers, and the secret it verifies with. */
const answers = new Map<string, number>();
const secrets = new Map<string, string>();
/** What the test does when a path of the receiver is called, before it answers. */
const reactions = new Map<string, () => Promise<unknown>>();

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

beforeAll(async () => {
  t = await createTestApp({ network: loopbackOnly });
  jobs = serverJobRunner(t, loopbackOnly);
  receiver = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const path = req.url ?? "";
    const headers = req.headers as Record<string, string>;
    let verified = false;
    // The signature's timestamp is the server's (test) clock: verified as of then.
    vi.useFakeTimers({ toFake: ["Date"], now: t.clock.now() });
    try {
      new Webhook(secrets.get(path) ?? SECRET).verify(text, headers);
      verified = true;
    } catch {
      verified = false;
    } finally {
      vi.useRealTimers();
    }
    received.push({ path, headers, body: JSON.parse(text), verified });
    await reactions.get(path)?.();
    res.writeHead(answers.get(path) ?? 204).end("thanks");
  });
  origin = `http://127.0.0.1:${await listen(receiver, "127.0.0.1")}`;
  const other = createServer((_req, res) => {
    forbiddenHits += 1;
    res.writeHead(204).end();
  });
  try {
    await listen(other, "127.0.0.2");
    forbidden = other;
  } catch {
    // No 127.0.0.2 here: the refusal is still tested, without a server behind the address.
  }
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  if (forbidden) await new Promise((resolve) => forbidden?.close(resolve));
  await t.close();
});

async function scenario() {
  const s = await buildOrganization(t, { reader: "read", creator: "create", outsider: "outsider" });
  return { ...s, hooksUrl: `/v1/orgs/${s.organizationId}/webhooks` };
}
type Scenario = Awaited<ReturnType<typeof scenario>>;

let paths = 0;
/** A path of the receiver of its own, answering `status`. */
function receiverPath(status = 204) {
  const path = `/hook/${++paths}`;
  answers.set(path, status);
  return { path, url: `${origin}${path}` };
}

/** A webhook to a new path of the receiver, created by the organization's admin. */
async function createHook(s: Scenario, body: Record<string, unknown> = {}, status = 204) {
  const { path, url } = receiverPath(status);
  const res = await t.request
    .post(s.hooksUrl)
    .set(s.admin.auth)
    .send({ url, ...body })
    .expect(201);
  secrets.set(path, res.body.secret);
  return { id: res.body.id as string, path, url, created: res.body as Schema<"Webhook"> };
}

const receivedAt = (path: string) => received.filter((r) => r.path === path);
/** `type:n` of each event sent to `path`, n counted from `base` (the organization's events before the test's). */
const typesAt = (path: string, base = 0) =>
  receivedAt(path).map((r) => `${r.body.type}:${r.body.sequence - base}`);

/** The organization's last event number now: other areas record events of their own (members joining). */
const lastSequence = async (organizationId: string) => {
  await numberEvents(t.db);
  return lastSequenceOf(t.db, organizationId);
};

function record<T extends EventType>(
  organizationId: string,
  type: T,
  data: EventData<T>,
  about: { spaceId?: string; siteId?: string } = {},
) {
  return t.db.transaction().execute((tx) => recordEvent(tx, t, { organizationId, type, data, ...about }));
}

const spaceCreated = (title: string, space = "space-x") =>
  ({ space, title, visibility: "private" }) satisfies EventData<"space_created">;

/** Time passes (by default past the sweep's period, so that due retries are taken), jobs run. */
async function deliver(ms = 15_000) {
  t.clock.advance(ms);
  await jobs.runUntilIdle();
}

async function deliveries(s: Scenario, webhookId: string, query = "") {
  const res = await t.request
    .get(`${s.hooksUrl}/${webhookId}/deliveries${query}`)
    .set(s.admin.auth)
    .expect(200);
  return res.body as Schema<"WebhookDeliveryPage">;
}

describe("webhooks", () => {
  it("creates, reads, lists, updates and deletes a webhook; its secret only in the answers that made it", async () => {
    const s = await scenario();
    const space = await buildSpace(t, { organization_id: s.organizationId });
    const { url } = receiverPath();
    const created = await t.request
      .post(s.hooksUrl)
      .set(s.admin.auth)
      .send({ url, events: ["space_created", "space_created"], space: space.id, description: "CI" })
      .expect(201);
    const id = created.body.id as string;
    const at = t.clock.now().toISOString();
    expect(created.body).toEqual({
      object: "webhook",
      id,
      url,
      events: ["space_created"],
      space: space.id,
      description: "CI",
      active: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: at,
      updatedAt: at,
      urls: { location: `http://quire.test${s.hooksUrl}/${id}` },
    });
    expect(Buffer.from(created.body.secret.slice(6), "base64")).toHaveLength(32);
    expect(created.headers.location).toBe(created.body.urls.location);
    // Stored encrypted: the secret is nowhere in the row.
    const row = await t.db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.body.secret);
    expect(JSON.stringify(row)).not.toContain(created.body.secret.slice(6));

    const { secret, ...shown } = created.body;
    const read = await t.request.get(`${s.hooksUrl}/${id}`).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(shown);
    const list = await t.request.get(s.hooksUrl).set(s.admin.auth).expect(200);
    expect(list.body).toEqual({ count: 1, items: [shown] });

    // A secret given is the one used; listing pages oldest first.
    t.clock.advance(1000);
    const second = await t.request
      .post(s.hooksUrl)
      .set(s.admin.auth)
      .send({ url, secret: SECRET, active: false })
      .expect(201);
    expect(second.body).toMatchObject({ secret: SECRET, active: false, events: [] });
    const first = await t.request.get(`${s.hooksUrl}?limit=1`).set(s.admin.auth).expect(200);
    expect(first.body).toMatchObject({ count: 2, items: [{ id }] });
    const next = await t.request
      .get(`${s.hooksUrl}?limit=1&page=${first.body.next.page}`)
      .set(s.admin.auth)
      .expect(200);
    expect(next.body.items.map((w: { id: string }) => w.id)).toEqual([second.body.id]);
    expect(JSON.stringify([first.body, next.body])).not.toContain("whsec_");

    // PATCH: what is given changes, the rest stays; null clears.
    t.clock.advance(1000);
    const updated = await t.request
      .patch(`${s.hooksUrl}/${id}`)
      .set(s.admin.auth)
      .send({ url: `${url}?v=2`, events: [], space: null, description: null })
      .expect(200);
    expect(updated.body).toEqual({
      ...shown,
      url: `${url}?v=2`,
      events: [],
      space: undefined,
      description: undefined,
      updatedAt: t.clock.now().toISOString(),
    });
    expect(updated.body.space).toBeUndefined();
    expect((await t.request.get(`${s.hooksUrl}/${id}`).set(s.admin.auth).expect(200)).body).toEqual(
      updated.body,
    );

    // Turned off by an admin: off since then, no reason given.
    const off = await t.request.patch(`${s.hooksUrl}/${id}`).set(s.admin.auth).send({ active: false });
    expect(off.body).toMatchObject({ active: false, disabledAt: t.clock.now().toISOString() });
    expect(off.body.disabledReason).toBeUndefined();
    const on = await t.request.patch(`${s.hooksUrl}/${id}`).set(s.admin.auth).send({ active: true });
    expect(on.body.active).toBe(true);
    expect(on.body.disabledAt).toBeUndefined();

    // A new secret, shown once.
    const rotated = await t.request
      .patch(`${s.hooksUrl}/${id}`)
      .set(s.admin.auth)
      .send({ rotateSecret: true })
      .expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await t.request.get(`${s.hooksUrl}/${id}`).set(s.admin.auth)).body.secret).toBeUndefined();

    await t.request.delete(`${s.hooksUrl}/${id}`).set(s.admin.auth).expect(204);
    await t.request.get(`${s.hooksUrl}/${id}`).set(s.admin.auth).expect(404);
    await t.request.delete(`${s.hooksUrl}/${id}`).set(s.admin.auth).expect(404);
    expect((await t.request.get(s.hooksUrl).set(s.admin.auth)).body.count).toBe(1);
  });

  it("answers 401 without a token, 403 to members other than admins, 404 for another organization", async () => {
    const s = await scenario();
    const other = await scenario();
    const { id } = await createHook(s);
    const { id: otherId } = await createHook(other);
    const deliveryId = "unknown";
    const operations: [string, string, Record<string, unknown>?][] = [
      ["get", s.hooksUrl],
      ["post", s.hooksUrl, { url: `${origin}/x` }],
      ["get", `${s.hooksUrl}/${id}`],
      ["patch", `${s.hooksUrl}/${id}`, { description: "x" }],
      ["delete", `${s.hooksUrl}/${id}`],
      ["post", `${s.hooksUrl}/${id}/test`],
      ["get", `${s.hooksUrl}/${id}/deliveries`],
      ["post", `${s.hooksUrl}/${id}/deliveries/${deliveryId}/redeliver`],
    ];
    for (const [method, path, body] of operations) {
      const send = (req: ReturnType<typeof t.request.get>) => (body ? req.send(body) : req);
      await send(t.request[method as "get"](path)).expect(401);
      for (const member of [s.reader, s.creator]) {
        const res = await send(t.request[method as "get"](path).set(member.auth)).expect(403);
        expect(res.body.error.message).toBe(
          "Your role does not allow you to manage the webhooks of this organization.",
        );
      }
      // Not a member: the organization is not found; its admin elsewhere, neither.
      await send(t.request[method as "get"](path).set(s.outsider.auth)).expect(404);
      await send(t.request[method as "get"](path).set(other.admin.auth)).expect(404);
    }
    // Another organization's webhook, by an admin of this one.
    for (const [method, suffix] of [
      ["get", ""],
      ["patch", ""],
      ["delete", ""],
      ["post", "/test"],
      ["get", "/deliveries"],
    ] as const) {
      const res = await t.request[method](`${s.hooksUrl}/${otherId}${suffix}`)
        .set(s.admin.auth)
        .send(method === "patch" ? { description: "x" } : undefined)
        .expect(404);
      expect(res.body.error.message).toBe("Webhook not found.");
    }
    // A delivery of no webhook of this one.
    await t.request.post(`${s.hooksUrl}/${id}/deliveries/unknown/redeliver`).set(s.admin.auth).expect(404);
    // Nothing was changed by the refused requests.
    expect((await t.request.get(`${s.hooksUrl}/${id}`).set(s.admin.auth).expect(200)).body.description).toBe(
      undefined,
    );
  });

  it("answers 400 for a URL that is not http(s), a space or site of another organization, a bad secret", async () => {
    const s = await scenario();
    const other = await scenario();
    const foreignSpace = await buildSpace(t, { organization_id: other.organizationId });
    const foreignSite = await t.request
      .post(`/v1/orgs/${other.organizationId}/sites`)
      .set(other.admin.auth)
      .send({})
      .expect(201);
    const url = `${origin}/x`;
    for (const [body, message] of [
      [{ url: "ftp://example.com/hook" }, /http/],
      [{ url: "not a url" }, undefined],
      [{ url, space: foreignSpace.id }, /`space` is not a space of this organization/],
      [{ url, space: "unknown" }, /`space`/],
      [{ url, site: foreignSite.body.id }, /`site` is not a site of this organization/],
      [{ url, secret: "whsec_short" }, undefined],
      [{ url, secret: `sk_${Buffer.alloc(32).toString("base64")}` }, undefined],
      [{ url, events: ["no_such_event"] }, undefined],
    ] as const) {
      const res = await t.request.post(s.hooksUrl).set(s.admin.auth).send(body).expect(400);
      if (message) expect(res.body.error.message).toMatch(message);
    }
    const { id } = await createHook(s);
    for (const body of [
      { url: "file:///etc/passwd" },
      { space: foreignSpace.id },
      { site: foreignSite.body.id },
    ])
      await t.request.patch(`${s.hooksUrl}/${id}`).set(s.admin.auth).send(body).expect(400);
    expect((await t.request.get(s.hooksUrl).set(s.admin.auth)).body.count).toBe(1);
  });

  it("sends the organization's events in order, signed, filtered by type, space and site", async () => {
    const s = await scenario();
    const other = await scenario();
    const space = await buildSpace(t, { organization_id: s.organizationId });
    const site = await t.request
      .post(`/v1/orgs/${s.organizationId}/sites`)
      .set(s.admin.auth)
      .send({})
      .expect(201);
    const base = await lastSequence(s.organizationId);
    const otherBase = await lastSequence(other.organizationId);
    // Before the webhooks: never sent.
    await record(s.organizationId, "space_created", spaceCreated("Before"));
    const all = await createHook(s);
    const typed = await createHook(s, { events: ["space_updated", "site_published"] });
    const ofSpace = await createHook(s, { space: space.id });
    const ofSite = await createHook(s, { site: site.body.id });
    const elsewhere = await createHook(other);

    await record(s.organizationId, "space_created", spaceCreated("One", space.id), { spaceId: space.id });
    await record(
      s.organizationId,
      "space_updated",
      { ...spaceCreated("Two", space.id), changes: ["title"] },
      { spaceId: space.id },
    );
    await record(s.organizationId, "space_created", spaceCreated("Three"), { spaceId: "another" });
    await record(
      s.organizationId,
      "site_published",
      { site: site.body.id, title: "Docs" },
      { siteId: site.body.id },
    );
    // Rolled back with its change: never sent.
    await t.db
      .transaction()
      .execute(async (tx) => {
        await recordEvent(tx, t, {
          organizationId: s.organizationId,
          type: "space_created",
          data: spaceCreated("Rolled back"),
        });
        throw new Error("the change failed");
      })
      .catch(() => undefined);
    await record(other.organizationId, "team_created", { team: "t1", title: "Elsewhere" });
    await record(s.organizationId, "member_joined", { user: s.reader.user.id, role: "read" });
    await deliver();

    // Numbered per organization: `Before` is 1 and the rolled back event gave its number to the next.
    expect(typesAt(all.path, base)).toEqual([
      "space_created:2",
      "space_updated:3",
      "space_created:4",
      "site_published:5",
      "member_joined:6",
    ]);
    expect(typesAt(typed.path, base)).toEqual(["space_updated:3", "site_published:5"]);
    expect(typesAt(ofSpace.path, base)).toEqual(["space_created:2", "space_updated:3"]);
    expect(typesAt(ofSite.path, base)).toEqual(["site_published:5"]);
    expect(typesAt(elsewhere.path, otherBase)).toEqual(["team_created:1"]);
    const sent = [all, typed, ofSpace, ofSite, elsewhere].flatMap((hook) => receivedAt(hook.path));
    expect(sent.every((r) => r.verified)).toBe(true);
    expect(JSON.stringify(sent)).not.toContain("Rolled back");
    expect(JSON.stringify(sent)).not.toContain("Before");

    // The body is the event as the contract gives it, with the Standard Webhooks headers.
    const [first] = receivedAt(all.path);
    expect(first?.body).toEqual({
      object: "event",
      id: expect.any(String),
      type: "space_created",
      version: 1,
      organization: s.organizationId,
      sequence: base + 2,
      createdAt: expect.any(String),
      data: { space: space.id, title: "One", visibility: "private" },
    });
    expect(first?.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Quire-Webhooks",
      "webhook-id": first?.body.id,
      "webhook-timestamp": String(Math.floor(t.clock.now().getTime() / 1000)),
      "webhook-signature": expect.stringMatching(/^v1,/),
    });

    // The deliveries, newest first, each a success after one attempt.
    const page = await deliveries(s, all.id);
    expect(page.count).toBe(5);
    expect(page.items.map((d) => d.event.sequence - base)).toEqual([6, 5, 4, 3, 2]);
    expect(page.items[4]).toEqual({
      object: "webhook-delivery",
      id: expect.any(String),
      webhook: all.id,
      event: first?.body,
      status: "success",
      attempts: 1,
      lastAttempt: { at: t.clock.now().toISOString(), statusCode: 204, durationMs: expect.any(Number) },
      createdAt: t.clock.now().toISOString(),
    });
    const two = await deliveries(s, all.id, "?limit=2");
    const rest = await deliveries(s, all.id, `?limit=10&page=${two.next?.page}`);
    expect([...two.items, ...rest.items].map((d) => d.id)).toEqual(page.items.map((d) => d.id));
    expect((await deliveries(s, all.id, "?status=pending")).count).toBe(0);
    expect((await deliveries(s, all.id, "?status=success")).count).toBe(5);

    // Nothing new: nothing sent again.
    const before = received.length;
    await deliver();
    expect(received.length).toBe(before);
  });

  it("retries with growing delays for a day, then turns the webhook off; turned on again, it resumes in order", async () => {
    const s = await scenario();
    const hook = await createHook(s, {}, 500);
    const base = await lastSequence(s.organizationId);
    await record(s.organizationId, "space_created", spaceCreated("First"));
    await record(s.organizationId, "space_created", spaceCreated("Second"));
    await deliver();

    const delays: number[] = [];
    for (let attempt = 1; ; attempt++) {
      const pending = await deliveries(s, hook.id, "?status=pending");
      const head = pending.items.find((d) => d.event.sequence === base + 1);
      if (!head) break;
      expect(head.attempts).toBe(attempt);
      expect(head.lastAttempt).toMatchObject({ statusCode: 500, error: "The receiver answered 500." });
      const next = new Date(head.nextAttemptAt ?? "").getTime();
      delays.push(next - new Date(head.lastAttempt?.at ?? "").getTime());
      // Not due yet: not sent.
      const sent = received.length;
      await deliver(next - t.clock.now().getTime() - 1000);
      expect(received.length).toBe(sent);
      await deliver(1000 + 15_000);
      expect(attempt).toBeLessThan(20);
    }
    const [m, h] = [60_000, 3_600_000];
    expect(delays.slice(0, 6)).toEqual([5000, 5 * m, 30 * m, 2 * h, 5 * h, 10 * h]);
    // Capped: the last attempt is a day after the first.
    expect(delays).toHaveLength(7);
    // Only the head was ever sent: the second event waits behind it.
    expect(typesAt(hook.path, base)).toEqual(Array(8).fill("space_created:1"));
    const failed = await deliveries(s, hook.id, "?status=failed");
    expect(failed.items).toMatchObject([{ attempts: 8, status: "failed", event: { sequence: base + 1 } }]);
    expect(failed.items[0]?.nextAttemptAt).toBeUndefined();
    const first = Number(receivedAt(hook.path)[0]?.headers["webhook-timestamp"]) * 1000;
    const last = new Date(failed.items[0]?.lastAttempt?.at ?? "").getTime();
    expect(last - first).toBeGreaterThanOrEqual(24 * h);

    const off = await t.request.get(`${s.hooksUrl}/${hook.id}`).set(s.admin.auth).expect(200);
    expect(off.body).toMatchObject({
      active: false,
      disabledReason: "Deliveries failed for 24 hours: The receiver answered 500.",
      disabledAt: t.clock.now().toISOString(),
    });
    // Off: new events are not sent to it, nor taken when it is turned on again.
    await record(s.organizationId, "space_created", spaceCreated("While off"));
    await deliver();
    expect(receivedAt(hook.path)).toHaveLength(8);

    // The receiver is fixed; turned on again, the webhook sends what waited, from the failed one.
    answers.set(hook.path, 204);
    const on = await t.request
      .patch(`${s.hooksUrl}/${hook.id}`)
      .set(s.admin.auth)
      .send({ active: true })
      .expect(200);
    expect(on.body.active).toBe(true);
    expect(on.body.disabledReason).toBeUndefined();
    expect(on.body.disabledAt).toBeUndefined();
    await record(s.organizationId, "space_created", spaceCreated("After"));
    await deliver();
    expect(typesAt(hook.path, base).slice(8)).toEqual([
      "space_created:1",
      "space_created:2",
      "space_created:4",
    ]);
    expect(receivedAt(hook.path).every((r) => r.verified)).toBe(true);
    const done = await deliveries(s, hook.id);
    expect(done.items.map((d) => [d.event.sequence - base, d.status, d.attempts])).toEqual([
      [4, "success", 1],
      [2, "success", 1],
      [1, "success", 9],
    ]);
  });

  it("keeps a webhook's order: a failing delivery holds the later ones back until it succeeds", async () => {
    const s = await scenario();
    const hook = await createHook(s, {}, 503);
    const base = await lastSequence(s.organizationId);
    await record(s.organizationId, "space_created", spaceCreated("A"));
    await deliver();
    await record(s.organizationId, "space_created", spaceCreated("B"));
    await record(s.organizationId, "space_created", spaceCreated("C"));
    await deliver(1000);
    await deliver(1000);
    expect(typesAt(hook.path, base)).toEqual(["space_created:1"]);
    const pending = await deliveries(s, hook.id, "?status=pending");
    expect(pending.items.map((d) => [d.event.sequence - base, d.attempts])).toEqual([
      [3, 0],
      [2, 0],
      [1, 1],
    ]);
    answers.set(hook.path, 200);
    await deliver();
    expect(typesAt(hook.path, base)).toEqual([
      "space_created:1",
      "space_created:1",
      "space_created:2",
      "space_created:3",
    ]);
    expect((await deliveries(s, hook.id, "?status=pending")).count).toBe(0);
  });

  it("reads a webhook changed while its queue is sent: the next delivery goes to its new URL; turned off, the rest waits", async () => {
    const s = await scenario();
    const hook = await createHook(s);
    const moved = receiverPath();
    secrets.set(moved.path, secrets.get(hook.path) ?? "");
    const base = await lastSequence(s.organizationId);
    for (const title of ["A", "B", "C"]) await record(s.organizationId, "space_created", spaceCreated(title));
    reactions.set(hook.path, () =>
      t.request.patch(`${s.hooksUrl}/${hook.id}`).set(s.admin.auth).send({ url: moved.url }).expect(200),
    );
    let answered = 0;
    reactions.set(moved.path, async () => {
      if (++answered === 1)
        await t.request
          .patch(`${s.hooksUrl}/${hook.id}`)
          .set(s.admin.auth)
          .send({ active: false })
          .expect(200);
    });
    await deliver();
    expect(typesAt(hook.path, base)).toEqual(["space_created:1"]);
    expect(typesAt(moved.path, base)).toEqual(["space_created:2"]);
    expect(receivedAt(moved.path).every((r) => r.verified)).toBe(true);
    const pending = await deliveries(s, hook.id, "?status=pending");
    expect(pending.items.map((d) => [d.event.sequence - base, d.attempts])).toEqual([[3, 0]]);
  });

  it("sends a test event at once and answers how it went, without turning the webhook off", async () => {
    const s = await scenario();
    const hook = await createHook(s);
    const bystander = await createHook(s);
    const res = await t.request.post(`${s.hooksUrl}/${hook.id}/test`).set(s.admin.auth).expect(200);
    const [ping] = receivedAt(hook.path);
    expect(ping?.verified).toBe(true);
    expect(ping?.body).toMatchObject({
      type: "ping",
      organization: s.organizationId,
      data: { webhook: hook.id },
      actor: s.admin.user.id,
    });
    expect(res.body).toEqual({
      object: "webhook-delivery",
      id: expect.any(String),
      webhook: hook.id,
      event: ping?.body,
      status: "success",
      attempts: 1,
      lastAttempt: { at: t.clock.now().toISOString(), statusCode: 204, durationMs: expect.any(Number) },
      createdAt: t.clock.now().toISOString(),
    });
    expect((await deliveries(s, hook.id)).items).toEqual([res.body]);

    answers.set(hook.path, 500);
    const failed = await t.request.post(`${s.hooksUrl}/${hook.id}/test`).set(s.admin.auth).expect(200);
    expect(failed.body).toMatchObject({
      status: "failed",
      attempts: 1,
      lastAttempt: { statusCode: 500, error: "The receiver answered 500." },
    });
    // A 3xx is a failure: redirects are not followed.
    answers.set(hook.path, 302);
    const redirected = await t.request.post(`${s.hooksUrl}/${hook.id}/test`).set(s.admin.auth).expect(200);
    expect(redirected.body).toMatchObject({
      status: "failed",
      lastAttempt: { statusCode: 302, error: "The receiver answered 302 (redirects are not followed)." },
    });
    expect((await t.request.get(`${s.hooksUrl}/${hook.id}`).set(s.admin.auth)).body.active).toBe(true);

    // Pings are never fanned out, to it or to the others; a failed one is not retried.
    answers.set(hook.path, 204);
    await deliver();
    expect(receivedAt(bystander.path)).toEqual([]);
    expect(receivedAt(hook.path)).toHaveLength(3);
    expect((await deliveries(s, hook.id)).items.map((d) => d.status)).toEqual([
      "failed",
      "failed",
      "success",
    ]);
  });

  it("redelivers an event as a new delivery after the others, with the same webhook-id", async () => {
    const s = await scenario();
    const hook = await createHook(s);
    await record(s.organizationId, "space_created", spaceCreated("Again"));
    await deliver();
    const [original] = (await deliveries(s, hook.id)).items;
    t.clock.advance(1000);
    const res = await t.request
      .post(`${s.hooksUrl}/${hook.id}/deliveries/${original?.id}/redeliver`)
      .set(s.admin.auth)
      .expect(201);
    expect(res.headers.location).toBe(`http://quire.test${s.hooksUrl}/${hook.id}/deliveries`);
    expect(res.body).toEqual({
      object: "webhook-delivery",
      id: expect.any(String),
      webhook: hook.id,
      event: original?.event,
      status: "pending",
      attempts: 0,
      nextAttemptAt: t.clock.now().toISOString(),
      createdAt: t.clock.now().toISOString(),
    });
    expect(res.body.id).not.toBe(original?.id);
    await jobs.runUntilIdle();
    const sent = receivedAt(hook.path);
    expect(sent.map((r) => r.headers["webhook-id"])).toEqual([original?.event.id, original?.event.id]);
    expect(sent.every((r) => r.verified)).toBe(true);
    const list = await deliveries(s, hook.id);
    expect(list.items.map((d) => [d.id, d.status])).toEqual([
      [res.body.id, "success"],
      [original?.id, "success"],
    ]);
  });

  it("refuses a URL at an address the network policy does not allow: the delivery fails, no request goes out", async () => {
    const s = await scenario();
    const port = forbidden ? (forbidden.address() as AddressInfo).port : 9;
    const url = `http://127.0.0.2:${port}/hook`;
    const created = await t.request.post(s.hooksUrl).set(s.admin.auth).send({ url }).expect(201);
    const id = created.body.id as string;
    const test = await t.request.post(`${s.hooksUrl}/${id}/test`).set(s.admin.auth).expect(200);
    expect(test.body).toMatchObject({
      status: "failed",
      lastAttempt: { error: "The address of 127.0.0.2 is not allowed." },
    });
    expect(test.body.lastAttempt.statusCode).toBeUndefined();
    await record(s.organizationId, "space_created", spaceCreated("Refused"));
    await deliver();
    const [delivery] = (await deliveries(s, id, "?status=pending")).items;
    expect(delivery).toMatchObject({
      attempts: 1,
      lastAttempt: { error: "The address of 127.0.0.2 is not allowed." },
    });
    expect(forbiddenHits).toBe(0);
    await t.request.delete(`${s.hooksUrl}/${id}`).set(s.admin.auth).expect(204);
    expect(
      await t.db.selectFrom("webhook_deliveries").where("webhook_id", "=", id).selectAll().execute(),
    ).toEqual([]);
  });

  it("keeps deliveries that ended for 30 days", async () => {
    const s = await scenario();
    const hook = await createHook(s);
    await record(s.organizationId, "space_created", spaceCreated("Old"));
    await deliver();
    expect((await deliveries(s, hook.id)).count).toBe(1);
    await deliver(29 * 24 * 3_600_000);
    expect((await deliveries(s, hook.id)).count).toBe(1);
    await deliver(2 * 24 * 3_600_000);
    expect((await deliveries(s, hook.id)).count).toBe(0);
  });
});
