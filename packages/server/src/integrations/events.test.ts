import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GitBookAPI } from "@gitbook/api";
import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";
import { lastSequenceOf } from "../events/read.js";
import type { JobRunner } from "../jobs/runner.js";
import { loopbackOnly, serverJobRunner } from "../testing/jobs.js";

/**
 * What the test calls of GitBook's client. Its index.d.ts re-exports `./client` without an extension,
 * which NodeNext does not resolve (and its exports map hides the file): the compiler sees a class
 * without operations, so these are named here.
 */
interface GitBookIntegrations {
  integrations: {
    listIntegrationEvents(name: string): Promise<{ data: { items: Schema<"IntegrationEvent">[] } }>;
    getIntegrationEvent(name: string, id: string): Promise<{ data: { event: Schema<"IntegrationEvent"> } }>;
  };
}

/** What the receiver was sent. */
interface Received {
  path: string;
  signature: string;
  text: string;
  body: Schema<"IntegrationEventPayload">;
}

let s: ContentScenario;
let jobs: JobRunner;
let receiver: Server;
let receiverOrigin: string;
/** The app itself on loopbackOnly, for GitBook's own client. */
let server: Server;
let appOrigin: string;
const received: Received[] = [];
/** The status each path of the receiver answers (204 by default). */
const answers = new Map<string, number>();

function listen(target: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    target.once("error", reject);
    target.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(target.address() as AddressInfo).port}`),
    );
  });
}

beforeAll(async () => {
  s = await createContentScenario({ network: loopbackOnly });
  jobs = serverJobRunner(s.t, loopbackOnly);
  receiver = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const path = req.url ?? "";
    const signature = String(req.headers["x-gitbook-integration-signature"] ?? "");
    received.push({ path, signature, text, body: JSON.parse(text) });
    res.writeHead(answers.get(path) ?? 204).end();
  });
  receiverOrigin = await listen(receiver);
  server = createServer(s.t.app);
  appOrigin = await listen(server);
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await new Promise((resolve) => server.close(resolve));
  await s.t.close();
});

let count = 0;
/** A new path of the receiver, answering `status`. */
function receiverPath(status = 204) {
  const path = `/events/${++count}`;
  answers.set(path, status);
  return { path, url: `${receiverOrigin}${path}` };
}

/** An integration of the scenario's organization sending its events to a new path of the receiver. */
async function publishWithEvents(status = 204) {
  const { path, url } = receiverPath(status);
  const name = `events-${count}`;
  const res = await s.t.request
    .post(`/v1/integrations/${name}`)
    .set(s.admin.auth)
    .send({
      title: "Events",
      description: "Receives events",
      scopes: ["space:content:read"],
      script: "export default {};",
      organization: s.organizationId,
      eventsURL: url,
    })
    .expect(200);
  return { name, path, url, secret: res.body.signingSecret as string, published: res.body };
}

async function installIn(name: string, organizationId = s.organizationId) {
  const res = await s.t.request
    .post(`/v1/integrations/${name}/installations`)
    .set(s.admin.auth)
    .send({ organization: organizationId })
    .expect(201);
  return res.body.id as string;
}

const coverEverySpace = (name: string, installationId: string) =>
  s.t.request
    .patch(`/v1/integrations/${name}/installations/${installationId}`)
    .set(s.admin.auth)
    .send({ space_selection: "all" })
    .expect(200);

/** A change request merged into a new space of the organization: `space_content_updated`. */
async function contentChange() {
  const space = await newSpaceContent(s);
  const cr = await space.createChangeRequest(s.admin, "Add a page");
  await space.edit(cr.number, [insertPage("Intro", "Hello.")]);
  await space.merge(cr.number);
  return { spaceId: space.spaceId, revision: (await space.space()).revision };
}

/** Time passes (past every period of the tasks concerned), jobs run. */
async function runJobs(ms = 15_000) {
  s.t.clock.advance(ms);
  await jobs.runUntilIdle();
}

const receivedAt = (path: string) => received.filter((r) => r.path === path);
const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex");

const listEvents = (name: string, auth = s.admin.auth, query = "") =>
  s.t.request.get(`/v1/integrations/${name}/events${query}`).set(auth);

describe("integration events", () => {
  it("sends an installed integration GitBook's payloads, signed, for what its installation covers; lists them", async () => {
    const { name, path, url, secret, published } = await publishWithEvents();
    expect(published).toMatchObject({
      eventsURL: url,
      signingSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The owner's admins see the URL, never the secret again.
    const read = await s.t.request.get(`/v1/integrations/${name}`).set(s.admin.auth).expect(200);
    expect(read.body.eventsURL).toBe(url);
    expect(read.body.signingSecret).toBeUndefined();
    const row = await s.t.db
      .selectFrom("integrations")
      .selectAll()
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    // A new version keeps the secret.
    const again = await s.t.request
      .post(`/v1/integrations/${name}`)
      .set(s.admin.auth)
      .send({
        title: "Events",
        description: "Receives events, v2",
        scopes: ["space:content:read"],
        script: "export default {};",
        organization: s.organizationId,
        eventsURL: url,
      })
      .expect(200);
    expect(again.body).toMatchObject({ version: 2, signingSecret: secret });

    const installationId = await installIn(name);
    // Installed with no space selected: a change of content is not the installation's to see.
    await contentChange();
    await runJobs();
    expect(receivedAt(path).map((r) => r.body)).toEqual([
      { eventId: expect.any(String), type: "installation_setup", installationId, status: "active" },
    ]);

    await coverEverySpace(name, installationId);
    const { spaceId, revision } = await contentChange();
    await runJobs();
    const bodies = receivedAt(path).map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toMatchObject({ type: "installation_setup", installationId });
    expect(bodies[2]).toEqual({
      eventId: expect.any(String),
      type: "space_content_updated",
      installationId,
      spaceId,
      revisionId: revision,
      updatedBy: [
        {
          object: "user",
          id: s.admin.user.id,
          displayName: s.admin.user.display_name,
          email: s.admin.user.email,
          urls: { location: expect.stringMatching(new RegExp(`/v1/users/${s.admin.user.id}$`)) },
        },
      ],
    });
    // Each signed as GitBook signs requests to integrations: HMAC-SHA256 of the body, hex.
    for (const r of receivedAt(path)) expect(r.signature).toBe(hmac(secret, r.text));
    // `eventId` is the event's id in the organization's stream.
    const event = await s.t.db
      .selectFrom("events")
      .select("type")
      .where("id", "=", bodies[2]?.eventId as string)
      .executeTakeFirstOrThrow();
    expect(event.type).toBe("space_content_updated");

    const list = await listEvents(name).expect(200);
    expect(list.body.count).toBe(3);
    expect(list.body.items.map((i: Schema<"IntegrationEvent">) => [i.payload.type, i.status])).toEqual([
      ["space_content_updated", "success"],
      ["installation_setup", "success"],
      ["installation_setup", "success"],
    ]);
    const integrationId = row.id;
    const first = list.body.items[0] as Schema<"IntegrationEvent">;
    expect(first).toEqual({
      id: expect.any(String),
      integrationId,
      installationId,
      createdAt: expect.any(String),
      payload: bodies[2],
      status: "success",
    });
    const paged = await listEvents(name, s.admin.auth, "?limit=2").expect(200);
    expect(paged.body.items).toHaveLength(2);
    const rest = await listEvents(name, s.admin.auth, `?limit=2&page=${paged.body.next.page}`).expect(200);
    expect(rest.body.items.map((i: { id: string }) => i.id)).toEqual([list.body.items[2].id]);

    const one = await s.t.request
      .get(`/v1/integrations/${name}/events/${first.id}`)
      .set(s.admin.auth)
      .expect(200);
    expect(one.body).toEqual({ event: first });

    // Nothing more to send: another run sends nothing twice.
    await runJobs();
    expect(receivedAt(path)).toHaveLength(3);
  });

  it("answers GitBook's own client (what `gitbook tail` calls)", async () => {
    const { name } = await publishWithEvents();
    await installIn(name);
    await runJobs();
    const api = new GitBookAPI({
      endpoint: appOrigin,
      authToken: s.admin.token,
    }) as unknown as GitBookIntegrations;
    const res = await api.integrations.listIntegrationEvents(name);
    expect(res.data.items).toHaveLength(1);
    const [item] = res.data.items;
    expect(item?.payload.type).toBe("installation_setup");
    expect(item?.status).toBe("success");
    const one = await api.integrations.getIntegrationEvent(name, item?.id as string);
    expect(one.data.event).toEqual(item);
  });

  it("tells an uninstalled integration, though the organization has no installation left to receive", async () => {
    const { name, path, secret } = await publishWithEvents();
    const installationId = await installIn(name);
    await runJobs();
    await s.t.request
      .delete(`/v1/integrations/${name}/installations/${installationId}`)
      .set(s.admin.auth)
      .expect(204);
    await contentChange();
    await runJobs();
    expect(receivedAt(path).map((r) => r.body)).toEqual([
      expect.objectContaining({ type: "installation_setup", installationId }),
      { eventId: expect.any(String), type: "installation_deleted", installationId, previous: {} },
    ]);
    expect(receivedAt(path).every((r) => r.signature === hmac(secret, r.text))).toBe(true);
    const list = await listEvents(name).expect(200);
    expect(list.body.items.map((i: Schema<"IntegrationEvent">) => i.payload.type)).toEqual([
      "installation_deleted",
      "installation_setup",
    ]);
  });

  it("retries a failing endpoint a few times with growing delays, then gives up; failed, with why", async () => {
    const { name, path } = await publishWithEvents(500);
    await installIn(name);
    await runJobs(2000);
    expect(receivedAt(path)).toHaveLength(1);
    const list = await listEvents(name).expect(200);
    expect(list.body.items.map((i: Schema<"IntegrationEvent">) => i.status)).toEqual(["failed"]);
    const id = list.body.items[0].id as string;
    const one = await s.t.request.get(`/v1/integrations/${name}/events/${id}`).set(s.admin.auth).expect(200);
    expect(one.body.trace.logs).toEqual([
      expect.objectContaining({ level: "error", message: expect.stringContaining("answered 500") }),
    ]);
    // Not due yet 5 s later; due 10 s, then 1 min, then 5 min after.
    await runJobs(5000);
    expect(receivedAt(path)).toHaveLength(1);
    await runJobs(10_000);
    expect(receivedAt(path)).toHaveLength(2);
    await runJobs(30_000);
    expect(receivedAt(path)).toHaveLength(2);
    await runJobs(60_000);
    expect(receivedAt(path)).toHaveLength(3);
    await runJobs(5 * 60_000);
    expect(receivedAt(path)).toHaveLength(4);
    await runJobs(60 * 60_000);
    expect(receivedAt(path)).toHaveLength(4);
    const row = await s.t.db
      .selectFrom("integration_events")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: "failed",
      attempts: 4,
      next_attempt_at: null,
      last_status_code: 500,
    });
  });

  it("costs an organization without a receiving installation nothing but its cursor's move", async () => {
    const { organizationId, admin } = await s.t.organization();
    const before = await s.t.db.selectFrom("integration_events").select("id").execute();
    await s.t.request
      .post(`/v1/orgs/${organizationId}/spaces`)
      .set(admin.auth)
      .send({ title: "Quiet" })
      .expect(201);
    await runJobs();
    const cursor = await s.t.db
      .selectFrom("event_cursors")
      .select("last_sequence")
      .where("consumer", "=", "integrations")
      .where("organization_id", "=", organizationId)
      .executeTakeFirstOrThrow();
    expect(Number(cursor.last_sequence)).toBe(await lastSequenceOf(s.t.db, organizationId));
    const after = await s.t.db.selectFrom("integration_events").select("id").execute();
    expect(after).toHaveLength(before.length);
  });

  it("lets the owner's admins alone list and read events: 401, 403, 404", async () => {
    const { name } = await publishWithEvents();
    await installIn(name);
    await runJobs();
    const [item] = (await listEvents(name).expect(200)).body.items;
    await s.t.request.get(`/v1/integrations/${name}/events`).expect(401);
    await s.t.request.get(`/v1/integrations/${name}/events/${item.id}`).expect(401);
    await listEvents(name, s.reader.auth).expect(403);
    await s.t.request.get(`/v1/integrations/${name}/events/${item.id}`).set(s.reader.auth).expect(403);
    // The reader sees no URL where events go.
    const seen = await s.t.request.get(`/v1/integrations/${name}`).set(s.reader.auth).expect(200);
    expect(seen.body.eventsURL).toBeUndefined();
    // A private integration is no one else's to know of.
    const other = await s.t.organization();
    await listEvents(name, other.admin.auth).expect(404);
    await listEvents(name, s.outsider.auth).expect(404);
    await s.t.request.get(`/v1/integrations/${name}/events/${item.id}`).set(other.admin.auth).expect(404);
    await listEvents("no-such-integration").expect(404);
    await s.t.request.get(`/v1/integrations/${name}/events/nope`).set(s.admin.auth).expect(404);
    // Another integration's event is not this one's.
    const { name: second } = await publishWithEvents();
    await s.t.request.get(`/v1/integrations/${second}/events/${item.id}`).set(s.admin.auth).expect(404);
  });

  it("refuses an events URL that is not http or https", async () => {
    const res = await s.t.request.post("/v1/integrations/events-bad-url").set(s.admin.auth).send({
      title: "Events",
      description: "Receives events",
      scopes: [],
      script: "export default {};",
      organization: s.organizationId,
      eventsURL: "ftp://example.com/events",
    });
    expect(res.status).toBe(400);
  });
});
