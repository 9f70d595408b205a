import { createHmac } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultEventDelivery } from "../events/delivery-settings.js";
import { startTestServer, type TestServer } from "../net/test-server.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import { loopbackOnly } from "../testing/jobs.js";

/** What the integration's events URL was sent. */
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** How a path of the receiver answers. */
interface Reply {
  status: number;
  headers?: OutgoingHttpHeaders;
  body?: string;
}

const TIMEOUT_MS = 1_000;
let t: TestApp;
let admin: TestUser;
let organizationId: string;
let receiver: TestServer;
const received: Received[] = [];
const replies = new Map<string, Reply>();

beforeAll(async () => {
  t = await createTestApp({
    network: loopbackOnly,
    eventDelivery: { ...defaultEventDelivery, timeoutMs: TIMEOUT_MS },
  });
  ({ organizationId, admin } = await t.organization());
  receiver = await startTestServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const path = req.url ?? "";
    received.push({ path, headers: req.headers, text });
    const reply = replies.get(path);
    // A path with no reply never answers.
    if (reply) res.writeHead(reply.status, reply.headers).end(reply.body);
  });
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

let count = 0;
/** An integration of the organization whose events URL is a new path of the receiver, answering `reply`. */
async function publish(reply: Reply | undefined, extra: Record<string, unknown> = {}) {
  const path = `/integration/${++count}`;
  if (reply) replies.set(path, reply);
  const name = `endpoint-${count}`;
  const res = await t.request
    .post(`/v1/integrations/${name}`)
    .set(admin.auth)
    .send({
      title: "Endpoint",
      description: "Answers requests",
      scopes: [],
      script: "export default {};",
      organization: organizationId,
      eventsURL: `${receiver.origin}${path}`,
      ...extra,
    })
    .expect(200);
  return { name, path, secret: res.body.signingSecret as string, published: res.body };
}

async function install(name: string) {
  const res = await t.request
    .post(`/v1/integrations/${name}/installations`)
    .set(admin.auth)
    .send({ organization: organizationId })
    .expect(201);
  return res.body as { id: string; urls: Record<string, string> };
}

/** The `fetch` event the receiver got at `path`, its signature checked with `secret`. */
function fetchEventAt(path: string, secret: string) {
  const sent = received.filter((r) => r.path === path);
  expect(sent).toHaveLength(1);
  const [only] = sent as [Received];
  expect(only.headers["x-gitbook-integration-signature"]).toBe(
    createHmac("sha256", secret).update(only.text).digest("hex"),
  );
  expect(only.headers["content-type"]).toBe("application/json");
  return JSON.parse(only.text);
}

describe("integration public endpoints", () => {
  it("forwards a request to an integration's endpoint as a signed fetch event, and relays its answer sandboxed", async () => {
    const integration = await publish(
      {
        status: 302,
        headers: { location: "https://example.com/done", "set-cookie": "session=1", "x-internal": "no" },
      },
      { contentSecurityPolicy: "default-src 'self'" },
    );
    expect(integration.published.urls).toMatchObject({
      publicEndpoint: `http://quire.test/v1/integrations/${integration.name}/integration`,
      publicContentEndpoint: `http://quire.test/v1/integrations/${integration.name}/integration`,
    });
    const res = await t.request
      .get(`/v1/integrations/${integration.name}/integration/oauth/callback?code=abc&state=1`)
      .set(admin.auth)
      .set("Cookie", "quire_site_session=secret")
      .set("X-Thing", "kept")
      .expect(302);
    expect(res.headers.location).toBe("https://example.com/done");
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(res.headers["x-internal"]).toBeUndefined();
    expect(res.headers["content-security-policy"]).toBe(
      "sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads, default-src 'self'",
    );
    expect(res.headers["x-content-type-options"]).toBe("nosniff");

    const event = fetchEventAt(integration.path, integration.secret);
    expect(event).toEqual({
      eventId: expect.any(String),
      type: "fetch",
      request: {
        method: "get",
        url: `http://quire.test/v1/integrations/${integration.name}/integration/oauth/callback?code=abc&state=1`,
        headers: expect.objectContaining({ "x-thing": "kept" }),
      },
    });
    // The caller's credentials on Quire never reach the integration.
    expect(event.request.headers).not.toHaveProperty("authorization");
    expect(event.request.headers).not.toHaveProperty("cookie");
  });

  it("forwards to an installation's endpoint naming the installation, with the request's body", async () => {
    const integration = await publish({
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: "<p>Configured</p>",
    });
    const installation = await install(integration.name);
    const endpoint = `http://quire.test/v1/integrations/${integration.name}/installations/${installation.id}/endpoint`;
    expect(installation.urls).toMatchObject({ publicEndpoint: endpoint, publicContentEndpoint: endpoint });
    const read = await t.request
      .get(`/v1/integrations/${integration.name}/installations/${installation.id}`)
      .set(admin.auth)
      .expect(200);
    expect(read.body.urls).toMatchObject({ publicEndpoint: endpoint, publicContentEndpoint: endpoint });

    // Anyone may call it: no token.
    const res = await t.request
      .post(`/v1/integrations/${integration.name}/installations/${installation.id}/endpoint/hooks/slack`)
      .set("Content-Type", "application/json")
      .send({ text: "hello é" })
      .expect(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.text).toBe("<p>Configured</p>");
    const event = fetchEventAt(integration.path, integration.secret);
    expect(event).toMatchObject({
      type: "fetch",
      installationId: installation.id,
      request: { method: "post", url: `${endpoint}/hooks/slack` },
    });
    expect(Buffer.from(event.body, "base64").toString("utf8")).toBe('{"text":"hello é"}');
  });

  it("answers 404 for an integration or installation not there, or an integration without an events URL", async () => {
    const integration = await publish({ status: 204 });
    const other = await publish({ status: 204 });
    const otherInstallation = await install(other.name);
    const without = await t.request
      .post("/v1/integrations/endpoint-silent")
      .set(admin.auth)
      .send({
        title: "Silent",
        description: "Takes no requests",
        scopes: [],
        script: "export default {};",
        organization: organizationId,
      })
      .expect(200);
    const before = received.length;
    await t.request.get("/v1/integrations/no-such-integration/integration").expect(404);
    // An installation of another integration is not this one's.
    await t.request
      .get(`/v1/integrations/${integration.name}/installations/${otherInstallation.id}/endpoint`)
      .expect(404);
    const silent = await t.request.get(`/v1/integrations/${without.body.name}/integration/x`).expect(404);
    expect(silent.body.error.message).toBe("The integration declares no eventsURL: it takes no requests.");
    expect(received.length).toBe(before);
  });

  it("answers 413 for a body over 1 MiB, 504 when the integration does not answer in time, 502 when it cannot be reached", async () => {
    const integration = await publish({ status: 204 });
    const before = received.length;
    await t.request
      .post(`/v1/integrations/${integration.name}/integration`)
      .set("Content-Type", "application/octet-stream")
      .send(Buffer.alloc(1024 * 1024 + 1))
      .expect(413);
    expect(received.length).toBe(before);

    const silent = await publish(undefined);
    const late = await t.request.get(`/v1/integrations/${silent.name}/integration`).expect(504);
    expect(late.body.error.message).toBe(`The integration did not answer within ${TIMEOUT_MS} ms.`);

    // A port nothing listens on.
    const closed = await startTestServer(() => {});
    await closed.close();
    const gone = await publish(undefined, { eventsURL: `${closed.origin}/events` });
    const unreachable = await t.request.get(`/v1/integrations/${gone.name}/integration`).expect(502);
    // Without the reason, which names the address the URL resolved to: the caller may be anyone.
    expect(unreachable.body.error.message).toBe("The integration could not be reached.");
  });
});
