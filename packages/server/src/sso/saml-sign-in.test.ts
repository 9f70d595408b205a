import { inflateRawSync } from "node:zlib";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { numberEvents } from "../events/numbering.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import { createTestIdp, createTestIdpKey, type TestIdp, type TestIdpResponse } from "../testing/saml-idp.js";

const ORIGIN = "http://quire.test";
const MINUTE = 60_000;

let t: TestApp;
let idp: TestIdp;
let admin: TestUser;
let organizationId: string;
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };
let teamId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, admin } = await t.organization());
  idp = createTestIdp({ entityId: "https://idp.example/metadata" });
  const team = await t.request
    .put(`/v1/orgs/${organizationId}/teams`)
    .set(admin.auth)
    .send({ title: "Writers" })
    .expect(201);
  teamId = team.body.id;
  const created = await t.request
    .post(`/v1/orgs/${organizationId}/saml`)
    .set(admin.auth)
    .send({
      label: "Corp IdP",
      entityID: idp.entityId,
      certificate: idp.certificate,
      ssoURL: "https://idp.example/sso",
      defaultRole: "edit",
      defaultTeam: teamId,
    })
    .expect(201);
  provider = created.body;
});

afterAll(() => t.close());

const pathOf = (url: string) => url.slice(ORIGIN.length);
const cookiesOf = (res: { headers: Record<string, unknown> }) =>
  [res.headers["set-cookie"] as string[] | string | undefined].flat().filter((c): c is string => Boolean(c));
const cookieNamed = (res: { headers: Record<string, unknown> }, name: string) =>
  cookiesOf(res)
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0];

/** Starts a sign-in as a browser does: the request's id (from the redirect) and the browser's cookie. */
async function start(app = t.app, next = "/app/orgs/o1") {
  const res = await supertest(app)
    .get(`${pathOf(provider.service.startURL)}?next=${next}`)
    .expect(303);
  const location = new URL(res.headers.location as string);
  expect(location.origin + location.pathname).toBe("https://idp.example/sso");
  const request = inflateRawSync(
    Buffer.from(location.searchParams.get("SAMLRequest") ?? "", "base64"),
  ).toString();
  const requestId = /ID="([^"]+)"/.exec(request)?.[1] ?? "";
  return { requestId, browser: cookieNamed(res, "quire_sso") ?? "" };
}

/** The identity provider's answer to `requestId`, valid for five minutes from the app's clock. */
const answer = (requestId: string, overrides: Partial<TestIdpResponse> = {}) => {
  const now = t.clock.now();
  return idp.respond({
    destination: provider.service.acsURL,
    recipient: provider.service.acsURL,
    audience: provider.service.entityID,
    inResponseTo: requestId,
    email: "New.Person@Corp.Example",
    issueInstant: now,
    notBefore: new Date(now.getTime() - MINUTE),
    notOnOrAfter: new Date(now.getTime() + 5 * MINUTE),
    sign: "assertion",
    attributes: { first_name: "New", last_name: "Person" },
    ...overrides,
  });
};

const post = (samlResponse: string, browser: string, app = t.app) =>
  supertest(app)
    .post(pathOf(provider.service.acsURL))
    .set("Cookie", browser)
    .type("form")
    .send({ SAMLResponse: samlResponse });

describe("signing in through a SAML provider", () => {
  it("provisions a new person on first sign-in with the provider's role and team, and signs them in", async () => {
    const { requestId, browser } = await start();
    expect(browser).toMatch(/^quire_sso=/);
    const res = await post(answer(requestId), browser).expect(303);
    expect(res.headers.location).toBe("/app/orgs/o1");
    const session = cookieNamed(res, "quire_session") ?? "";
    const me = await supertest(t.app).get("/v1/user").set("Cookie", session).expect(200);
    expect(me.body).toMatchObject({ email: "new.person@corp.example", displayName: "New Person" });
    const member = await t.request
      .get(`/v1/orgs/${organizationId}/members/${me.body.id}`)
      .set(admin.auth)
      .expect(200);
    expect(member.body).toMatchObject({ role: "edit", sso: true });
    const team = await t.request
      .get(`/v1/orgs/${organizationId}/teams/${teamId}/members`)
      .set(admin.auth)
      .expect(200);
    expect(
      team.body.items.map((m: { organization: { user: { id: string } } }) => m.organization.user.id),
    ).toContain(me.body.id);
    const sessions = await supertest(t.app).get("/v1/user/sessions").set("Cookie", session).expect(200);
    expect(sessions.body.items[0]).toMatchObject({ method: "saml", current: true });

    // The second time, the same member signs in: no second account.
    const again = await start();
    const second = await post(answer(again.requestId), again.browser).expect(303);
    const me2 = await supertest(t.app)
      .get("/v1/user")
      .set("Cookie", cookieNamed(second, "quire_session") ?? "")
      .expect(200);
    expect(me2.body.id).toBe(me.body.id);
  });

  it("refuses a replayed response, a used request, and each forged or stale answer, signing no one in", async () => {
    const refused = async (samlResponse: string, browser: string) => {
      const res = await post(samlResponse, browser).expect(403);
      expect(cookieNamed(res, "quire_session")).toBeUndefined();
      return res.text;
    };
    const first = await start();
    const valid = answer(first.requestId);
    await post(valid, first.browser).expect(303);
    expect(await refused(valid, first.browser)).toContain("Sign-in refused");

    const forgedBy = createTestIdpKey();
    for (const overrides of [
      { signWith: forgedBy },
      { sign: "none" as const },
      { audience: "https://someone-else.example" },
      { recipient: "https://quire.test/elsewhere", destination: "https://quire.test/elsewhere" },
      { notOnOrAfter: new Date(t.clock.now().getTime() - 2 * MINUTE) },
      { inResponseTo: "_never-asked" },
    ]) {
      const { requestId, browser } = await start();
      await refused(answer(requestId, overrides), browser);
    }
    const { requestId, browser } = await start();
    await refused(idp.wrap(answer(requestId), { email: "admin@corp.example", shape: "sibling" }), browser);
    await numberEvents(t.db);
    const failures = await t.db
      .selectFrom("events")
      .select("data")
      .where("organization_id", "=", organizationId)
      .where("type", "=", "sign_in_failed")
      .execute();
    expect(failures.length).toBeGreaterThanOrEqual(8);
    expect(JSON.parse(failures[0]?.data as string)).toEqual({ operation: "signIn", method: "saml" });
  });

  it("refuses an email whose account exists without signing in through the provider", async () => {
    const existing = await t.user({ organizationId, role: "read" });
    const { requestId, browser } = await start();
    const res = await post(answer(requestId, { email: existing.user.email }), browser).expect(403);
    expect(res.text).toContain("already exists and does not sign in through this provider");
  });

  it("over https, accepts a response only in the browser that began the sign-in (no login CSRF)", async () => {
    const secure = createApp({
      db: t.db,
      secretKey: t.secretKey,
      clock: t.clock,
      publicUrl: ORIGIN.replace("http:", "https:"),
    });
    const attacker = await start(secure);
    expect(attacker.browser).toBeTruthy();
    const res = await supertest(secure)
      .get(`${pathOf(provider.service.startURL)}`)
      .expect(303);
    expect(cookiesOf(res).find((c) => c.startsWith("quire_sso="))).toMatch(/; Secure; SameSite=None/);
    // The attacker's own valid response, posted from a victim's browser that began no sign-in.
    const forced = await post(answer(attacker.requestId), "", secure).expect(403);
    expect(cookieNamed(forced, "quire_session")).toBeUndefined();
  });

  it("is found from the sign-in page by the person's email domain", async () => {
    await t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(admin.auth)
      .send({ emailDomains: ["corp.example"] })
      .expect(200);
    const page = await supertest(t.app).get("/sign-in").expect(200);
    expect(page.text).toContain("Sign in with single sign-on");
    const found = await supertest(t.app)
      .post("/sign-in/sso")
      .set("Origin", ORIGIN)
      .type("form")
      .send({ email: "someone@Corp.Example", next: "/app/orgs/o3" })
      .expect(303);
    expect(found.headers.location).toBe(
      `${provider.service.startURL}?next=${encodeURIComponent("/app/orgs/o3")}`,
    );
    const started = await supertest(t.app)
      .get(pathOf(found.headers.location as string))
      .expect(303);
    expect(started.headers.location).toMatch(/^https:\/\/idp\.example\/sso\?SAMLRequest=/);
    const none = await supertest(t.app)
      .post("/sign-in/sso")
      .set("Origin", ORIGIN)
      .type("form")
      .send({ email: "someone@elsewhere.example" })
      .expect(404);
    expect(none.text).toContain("No single sign-on is set up for this email's domain.");
    await supertest(t.app)
      .post("/sign-in/sso")
      .set("Origin", "https://evil.example")
      .type("form")
      .send({ email: "a@corp.example" })
      .expect(403);
  });

  it("answers 404 for an unknown or incomplete provider", async () => {
    await supertest(t.app).get("/sso/saml/nope/start").expect(404);
    await supertest(t.app).post("/sso/saml/nope/acs").type("form").send({ SAMLResponse: "x" }).expect(404);
    const pending = await t.request
      .post(`/v1/orgs/${organizationId}/saml`)
      .set(admin.auth)
      .send({ label: "Half done" })
      .expect(201);
    await supertest(t.app).get(`/sso/saml/${pending.body.id}/start`).expect(404);
  });
});
