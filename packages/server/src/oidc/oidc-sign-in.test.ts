import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import {
  startOpenIdProvider,
  type TestOidcAccount,
  type TestOpenIdProvider,
} from "../testing/oidc-provider.js";

const ORIGIN = "http://quire.test";

let t: TestApp;
let op: TestOpenIdProvider;
let admin: TestUser;
let organizationId: string;
let provider: { id: string; service: { redirectURL: string; startURL: string } };

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, admin } = await t.organization());
  // The provider's redirect URL names its id: made first, then pointed at the provider once it runs.
  const created = await t.request
    .post(`/v1/orgs/${organizationId}/oidc-providers`)
    .set(admin.auth)
    .send({
      label: "Corp",
      issuer: "http://127.0.0.1:9/",
      clientId: "quire",
      clientSecret: "quire-secret",
      defaultRole: "comment",
    })
    .expect(201);
  provider = created.body;
  op = await startOpenIdProvider({
    clients: [
      { clientId: "quire", clientSecret: "quire-secret", redirectUris: [provider.service.redirectURL] },
    ],
  });
  await t.request
    .patch(`/v1/orgs/${organizationId}/oidc-providers/${provider.id}`)
    .set(admin.auth)
    .send({ issuer: op.issuer })
    .expect(200);
});

afterAll(async () => {
  await op.close();
  await t.close();
});

const pathOf = (url: string) => url.slice(ORIGIN.length);
const cookieNamed = (res: { headers: Record<string, unknown> }, name: string) =>
  [res.headers["set-cookie"] as string[] | string | undefined]
    .flat()
    .find((c) => c?.startsWith(`${name}=`))
    ?.split(";")[0];

/** A browser begins the sign-in, the person signs in at the provider; where the provider sends them back. */
async function throughProvider(account: TestOidcAccount) {
  const started = await supertest(t.app)
    .get(`${pathOf(provider.service.startURL)}?next=/app/orgs/o2`)
    .expect(303);
  const browser = cookieNamed(started, "quire_sso") ?? "";
  const callback = await op.signIn(started.headers.location as string, op.addAccount(account));
  expect(callback.origin + callback.pathname).toBe(provider.service.redirectURL);
  return { browser, callback: `${callback.pathname}${callback.search}` };
}

describe("signing in through an OpenID Connect provider", () => {
  it("provisions a new person with the provider's role, and signs them in where they were going", async () => {
    const { browser, callback } = await throughProvider({
      email: "Ola@Corp.Example",
      email_verified: true,
      name: "Ola Nordmann",
    });
    const res = await supertest(t.app).get(callback).set("Cookie", browser).expect(303);
    expect(res.headers.location).toBe("/app/orgs/o2");
    const session = cookieNamed(res, "quire_session") ?? "";
    const me = await supertest(t.app).get("/v1/user").set("Cookie", session).expect(200);
    expect(me.body).toMatchObject({ email: "ola@corp.example", displayName: "Ola Nordmann" });
    const member = await t.request
      .get(`/v1/orgs/${organizationId}/members/${me.body.id}`)
      .set(admin.auth)
      .expect(200);
    expect(member.body).toMatchObject({ role: "comment", sso: true });
    // The code and the sign-in are used once.
    await supertest(t.app).get(callback).set("Cookie", browser).expect(403);
  });

  it("refuses an unverified email, a callback in another browser, and a forged state", async () => {
    const unverified = await throughProvider({
      email: "eve@corp.example",
      email_verified: false,
      name: "Eve",
    });
    const refused = await supertest(t.app)
      .get(unverified.callback)
      .set("Cookie", unverified.browser)
      .expect(403);
    expect(refused.text).toContain("Sign-in refused");
    expect(cookieNamed(refused, "quire_session")).toBeUndefined();

    const elsewhere = await throughProvider({ email: "kari@corp.example", email_verified: true });
    await supertest(t.app).get(elsewhere.callback).set("Cookie", "quire_sso=another-browser").expect(403);
    await supertest(t.app).get(elsewhere.callback).expect(403);

    const forged = await throughProvider({ email: "per@corp.example", email_verified: true });
    const wrongState = forged.callback.replace(/state=[^&]+/, "state=forged");
    await supertest(t.app).get(wrongState).set("Cookie", forged.browser).expect(403);
  });

  it("is listed among the organization's single sign-on logins, with its start URL", async () => {
    const logins = await t.request.get(`/v1/orgs/${organizationId}/sso`).set(admin.auth).expect(200);
    expect(logins.body.items).toContainEqual({
      id: provider.id,
      label: "Corp",
      startURL: provider.service.startURL,
    });
  });

  it("answers 404 for an unknown provider", async () => {
    await supertest(t.app).get("/sso/oidc/nope/start").expect(404);
    await supertest(t.app).get("/sso/oidc/nope/callback?state=x").expect(404);
  });
});
