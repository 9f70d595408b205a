import { SignJWT } from "jose";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { createSite, createSiteScenario, type SiteScenario, sitePath } from "./testing.js";

let s: SiteScenario;
beforeAll(async () => {
  s = await createSiteScenario();
});
afterAll(() => s.t.close());

const token = (privateKey: string) =>
  new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(privateKey));

describe("a visitor-auth key sealed under another secret key", () => {
  it("answers 409 to its administrators and refuses visitors, until it is regenerated", async () => {
    const site = await createSite(s);
    const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
    await s.t.request.patch(path()).set(s.admin.auth).send({ visibility: "visitor-auth" }).expect(200);
    await s.t.request.post(path("/publish")).set(s.admin.auth).expect(200);
    const before = await s.t.request.get(path("/publishing/auth")).set(s.admin.auth).expect(200);
    const visitorToken = await token(before.body.privateKey);

    // The same database behind a server whose secret key changed.
    const changed = supertest(
      createApp({
        db: s.t.db,
        validateResponses: true,
        publicUrl: "http://quire.test",
        secretKey: generateSecretKey(),
      }),
    );
    const refused = await changed.get(path("/publishing/auth")).set(s.admin.auth).expect(409);
    expect(refused.body.error.message).toContain("regenerate");
    const visitor = await changed.get(`/s/${site.id}/?jwt_token=${visitorToken}`).redirects(0).expect(401);
    expect(visitor.headers["content-type"]).toMatch(/html/);

    const regenerated = await changed.post(path("/publishing/auth/regenerate")).set(s.admin.auth).expect(200);
    expect(regenerated.body.privateKey).not.toBe(before.body.privateKey);
    expect((await changed.get(path("/publishing/auth")).set(s.admin.auth).expect(200)).body).toEqual(
      regenerated.body,
    );
    // Let in: the token is kept in the cookie, and the site, with no page yet, answers 404 not 401.
    const admitted = await changed
      .get(`/s/${site.id}/?jwt_token=${await token(regenerated.body.privateKey)}`)
      .redirects(0);
    expect(admitted.status).toBe(404);
    expect(String(admitted.headers["set-cookie"])).toContain("quire_visitor=");
  });
});
