import { Secret, TOTP } from "otpauth";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { numberEvents } from "../events/numbering.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";

const ORIGIN = "http://quire.test";
const PASSWORD = "correct horse battery";
const STEP_MS = 30_000;

let t: TestApp;
let organizationId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId } = await t.organization());
});

afterAll(() => t.close());

const browser = () => supertest(t.app);
const postForm = (path: string, cookie?: string) =>
  browser()
    .post(path)
    .set({ Origin: ORIGIN, ...(cookie && { Cookie: cookie }) })
    .type("form");
const cookieNamed = (res: { headers: Record<string, unknown> }, name: string) =>
  [res.headers["set-cookie"] as string[] | string | undefined].flat().find((c) => c?.startsWith(`${name}=`));
const sentBack = (cookie: string | undefined) => (cookie ?? "").split(";")[0] as string;

/** The authenticator app's code of now, on the app's clock. */
const codeOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });

/** A member with a password and an authenticator app turned on; returns its secret and recovery codes. */
async function memberWithTotp(): Promise<TestUser & { secret: string; codes: string[] }> {
  const user = await t.user({ organizationId, role: "create" });
  await t.setPassword(user, PASSWORD);
  const { body: setup } = await t.request.post("/v1/user/factors/totp").set(user.auth).expect(200);
  const { body } = await t.request
    .post("/v1/user/factors/totp/confirm")
    .set(user.auth)
    .send({ code: codeOf(setup.secret) })
    .expect(200);
  // The code just used cannot sign in: the next ones come from the next step.
  t.clock.advance(STEP_MS);
  return { ...user, secret: setup.secret, codes: body.codes };
}

/** Signs in with the password: the pending sign-in's cookie, to give the second factor with. */
async function passwordStep(user: TestUser, next?: string): Promise<string> {
  const res = await postForm("/sign-in")
    .send({ email: user.user.email, password: PASSWORD, ...(next && { next }) })
    .expect(303);
  expect(res.headers.location).toBe("/sign-in/second-factor");
  expect(cookieNamed(res, "quire_session")).toBeUndefined();
  return sentBack(cookieNamed(res, "quire_sign_in"));
}

const giveCode = (pending: string, code: string) =>
  postForm("/sign-in/second-factor", pending).send({ code });

const eventsOf = async (type: string, userId: string) => {
  await numberEvents(t.db);
  const rows = await t.db
    .selectFrom("events")
    .selectAll()
    .where("type", "=", type as never)
    .where("actor_id", "=", userId)
    .execute();
  return rows.map((row) => JSON.parse(row.data as string));
};

describe("an authenticator app (TOTP)", () => {
  it("is set up with a secret shown once, and counts only once a code of it is confirmed", async () => {
    const user = await t.user({ organizationId });
    const { body: setup } = await t.request.post("/v1/user/factors/totp").set(user.auth).expect(200);
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toMatch(/^otpauth:\/\/totp\/Quire:user\d+%40example\.com\?/);
    expect(setup.uri).toContain(`secret=${setup.secret}`);
    expect((await t.request.get("/v1/user/factors").set(user.auth).expect(200)).body).toEqual({
      items: [],
      recoveryCodesLeft: 0,
    });
    // Sealed at rest.
    const stored = await t.db
      .selectFrom("user_factors")
      .selectAll()
      .where("user_id", "=", user.user.id)
      .execute();
    expect(JSON.stringify(stored)).not.toContain(setup.secret);
    const confirm = (code: string) =>
      t.request.post("/v1/user/factors/totp/confirm").set(user.auth).send({ code, name: "Phone" });
    await confirm("000000").expect(400);
    const { body } = await confirm(codeOf(setup.secret)).expect(200);
    expect(body.codes).toHaveLength(10);
    expect(new Set(body.codes).size).toBe(10);
    for (const code of body.codes) expect(code).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){3}$/);
    const list = await t.request.get("/v1/user/factors").set(user.auth).expect(200);
    expect(list.body).toMatchObject({
      items: [{ object: "factor", kind: "totp", name: "Phone" }],
      recoveryCodesLeft: 10,
    });
    expect(await eventsOf("factor_added", user.user.id)).toEqual([
      { user: user.user.id, factor: list.body.items[0].id, kind: "totp" },
    ]);
    // Nothing left to confirm.
    await confirm(codeOf(setup.secret)).expect(409);
  });

  it("makes sign-in ask for a Code: a wrong one is refused, the right one signs in once, then never again", async () => {
    const user = await memberWithTotp();
    const pendingRes = await postForm("/sign-in")
      .send({ email: user.user.email, password: PASSWORD, next: "/app/spaces/s1" })
      .expect(303);
    const pendingCookie = cookieNamed(pendingRes, "quire_sign_in") as string;
    expect(pendingCookie).toMatch(
      /^quire_sign_in=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/sign-in; HttpOnly; SameSite=Lax$/,
    );
    const pending = sentBack(pendingCookie);

    const page = await browser().get("/sign-in/second-factor").set("Cookie", pending).expect(200);
    expect(page.text).toMatch(/<label for="field-code">Code<\/label>/);
    expect(page.text).toContain('<button type="submit">Verify</button>');
    // No passkey, no button for one.
    expect(page.text).not.toContain("Use a passkey");
    await browser().get("/sign-in/second-factor").expect(401);

    await giveCode(pending, "123456").expect(401);
    // From another site: refused before any code is tried.
    await browser()
      .post("/sign-in/second-factor")
      .set({ Origin: "https://evil.example", Cookie: pending })
      .type("form")
      .send({ code: codeOf(user.secret) })
      .expect(403);
    const code = codeOf(user.secret);
    const signedIn = await giveCode(pending, code).expect(303);
    expect(signedIn.headers.location).toBe("/app/spaces/s1");
    expect(cookieNamed(signedIn, "quire_sign_in")).toMatch(/^quire_sign_in=; Max-Age=0; Path=\/sign-in;/);
    const session = sentBack(cookieNamed(signedIn, "quire_session"));
    expect((await browser().get("/v1/user").set("Cookie", session).expect(200)).body.id).toBe(user.user.id);
    // The pending sign-in is over.
    await giveCode(pending, code).expect(401);
    // The same code, again, within its 90 seconds: refused.
    const again = await passwordStep(user);
    await giveCode(again, code).expect(401);
    t.clock.advance(STEP_MS);
    await giveCode(again, codeOf(user.secret)).expect(303);
    const signedInEvents = await eventsOf("signed_in", user.user.id);
    expect(signedInEvents.map((data) => data.method)).toEqual(["password", "password"]);
  });

  it("accepts the code of the step before or after, not two away", async () => {
    const user = await memberWithTotp();
    const pending = await passwordStep(user);
    const early = codeOf(user.secret);
    t.clock.advance(2 * STEP_MS);
    await giveCode(pending, early).expect(401);
    const late = codeOf(user.secret);
    t.clock.advance(-STEP_MS);
    await giveCode(pending, late).expect(303);
    t.clock.advance(STEP_MS);
  });

  it("takes a recovery code once instead of the app's code", async () => {
    const user = await memberWithTotp();
    const [first] = user.codes;
    await giveCode(await passwordStep(user), (first as string).toUpperCase()).expect(303);
    await giveCode(await passwordStep(user), first as string).expect(401);
    const list = await t.request.get("/v1/user/factors").set(user.auth).expect(200);
    expect(list.body.recoveryCodesLeft).toBe(9);
    // New codes replace the old.
    const { body } = await t.request.post("/v1/user/factors/recovery-codes").set(user.auth).expect(200);
    expect(body.codes).toHaveLength(10);
    await giveCode(await passwordStep(user), user.codes[1] as string).expect(401);
    await giveCode(await passwordStep(user), body.codes[0]).expect(303);
  });

  it("ends a pending sign-in after five wrong codes: the password is asked again", async () => {
    const user = await memberWithTotp();
    const pending = await passwordStep(user);
    for (let attempt = 1; attempt < 5; attempt++) await giveCode(pending, "000000").expect(401);
    const last = await giveCode(pending, "000000").expect(401);
    expect(last.text).toContain("Sign in again");
    await giveCode(pending, codeOf(user.secret)).expect(401);
    await browser().get("/sign-in/second-factor").set("Cookie", pending).expect(401);
    // Each wrong code is in the audit log of the person's organizations.
    await numberEvents(t.db);
    const failures = await t.db
      .selectFrom("events")
      .select("data")
      .where("type", "=", "sign_in_failed")
      .execute();
    expect(
      failures.map((row) => JSON.parse(row.data as string)).filter((data) => data.user === user.user.id),
    ).toEqual(Array(5).fill({ operation: "signInSecondFactor", method: "password", user: user.user.id }));
  });

  it("counts codes against the account's limit of sign-in attempts", async () => {
    const user = await memberWithTotp();
    // The password step counts too: 2 pending sign-ins, 2 + 8 attempts.
    let pending = await passwordStep(user);
    for (let attempt = 0; attempt < 4; attempt++) await giveCode(pending, "000000").expect(401);
    pending = await passwordStep(user);
    for (let attempt = 0; attempt < 4; attempt++) await giveCode(pending, "000000").expect(401);
    const refused = await giveCode(pending, codeOf(user.secret)).expect(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(cookieNamed(refused, "quire_session")).toBeUndefined();
  });

  it("is asked after a sign-in link too", async () => {
    const user = await memberWithTotp();
    const { createLinkToken } = await import("./store.js");
    const token = await createLinkToken(t.db, t, {
      userId: user.user.id,
      purpose: "sign_in",
      validForMs: 60_000,
    });
    const res = await postForm(`/sign-in/link/${token}`).send({ next: "/app/x" }).expect(303);
    expect(res.headers.location).toBe("/sign-in/second-factor");
    expect(cookieNamed(res, "quire_session")).toBeUndefined();
    const done = await giveCode(sentBack(cookieNamed(res, "quire_sign_in")), codeOf(user.secret)).expect(303);
    expect(done.headers.location).toBe("/app/x");
    const session = sentBack(cookieNamed(done, "quire_session"));
    const sessions = await browser().get("/v1/user/sessions").set("Cookie", session).expect(200);
    expect(sessions.body.items[0]).toMatchObject({ method: "link", current: true });
  });

  it("is asked after a password reset by email", async () => {
    const user = await memberWithTotp();
    const { createLinkToken } = await import("./store.js");
    const token = await createLinkToken(t.db, t, {
      userId: user.user.id,
      purpose: "reset",
      validForMs: 60_000,
    });
    const res = await postForm(`/reset-password/${token}`).send({ password: "a new password!" }).expect(303);
    expect(res.headers.location).toBe("/sign-in/second-factor");
    expect(cookieNamed(res, "quire_session")).toBeUndefined();
  });

  it("is removed with the current password; the recovery codes go with the last factor", async () => {
    const user = await memberWithTotp();
    const { body: list } = await t.request.get("/v1/user/factors").set(user.auth).expect(200);
    const factorId = list.items[0].id;
    const remove = (body?: object) =>
      t.request.delete(`/v1/user/factors/${factorId}`).set(user.auth).send(body);
    await remove().expect(400);
    await remove({ currentPassword: "not the password" }).expect(403);
    await remove({ currentPassword: PASSWORD }).expect(204);
    await remove({ currentPassword: PASSWORD }).expect(404);
    expect((await t.request.get("/v1/user/factors").set(user.auth).expect(200)).body).toEqual({
      items: [],
      recoveryCodesLeft: 0,
    });
    expect(await eventsOf("factor_removed", user.user.id)).toEqual([
      { user: user.user.id, factor: factorId, kind: "totp" },
    ]);
    const res = await postForm("/sign-in").send({ email: user.user.email, password: PASSWORD }).expect(303);
    expect(res.headers.location).toBe("/app/");
    // Someone else's factor is as unknown as a missing one.
    const other = await memberWithTotp();
    const { body: theirs } = await t.request.get("/v1/user/factors").set(other.auth).expect(200);
    await t.request
      .delete(`/v1/user/factors/${theirs.items[0].id}`)
      .set(user.auth)
      .send({ currentPassword: PASSWORD })
      .expect(404);
  });

  it("without a password, is removed only from a session begun in the last ten minutes", async () => {
    const user = await t.user({ organizationId });
    const { createLinkToken } = await import("./store.js");
    const token = await createLinkToken(t.db, t, {
      userId: user.user.id,
      purpose: "sign_in",
      validForMs: 60_000,
    });
    const signedIn = await postForm(`/sign-in/link/${token}`).send({}).expect(303);
    const session = sentBack(cookieNamed(signedIn, "quire_session"));
    const api = (method: "post" | "delete", path: string) =>
      browser()[method](path).set({ Cookie: session, Origin: ORIGIN, "X-Quire-CSRF": "1" });
    const { body: setup } = await api("post", "/v1/user/factors/totp").expect(200);
    await api("post", "/v1/user/factors/totp/confirm")
      .send({ code: codeOf(setup.secret) })
      .expect(200);
    const { body: list } = await browser().get("/v1/user/factors").set("Cookie", session).expect(200);
    await t.request.delete(`/v1/user/factors/${list.items[0].id}`).set(user.auth).expect(403);
    t.clock.advance(11 * 60 * 1000);
    await api("delete", `/v1/user/factors/${list.items[0].id}`).expect(403);
  });
});

describe("the security page", () => {
  it("sends a signed-out visitor to sign in, and back", async () => {
    const res = await browser().get("/account/security").expect(303);
    expect(res.headers.location).toBe("/sign-in?next=%2Faccount%2Fsecurity");
    const user = await t.user({ organizationId });
    await t.setPassword(user, PASSWORD);
    const signedIn = await postForm("/sign-in")
      .send({ email: user.user.email, password: PASSWORD, next: "/account/security" })
      .expect(303);
    expect(signedIn.headers.location).toBe("/account/security");
  });

  it("sets up an authenticator app: the secret as text, a Code, Turn on, then the recovery codes", async () => {
    const user = await t.user({ organizationId });
    const session = await t.signIn(user);
    const page = await browser().get("/account/security").set("Cookie", session).expect(200);
    const secret = /<code>([A-Z2-7]{32})<\/code>/.exec(page.text)?.[1] as string;
    expect(secret).toBeDefined();
    expect(page.text).toContain(`otpauth://totp/Quire:${encodeURIComponent(user.user.email)}`);
    expect(page.text).toMatch(/<label for="field-code">Code<\/label>/);
    expect(page.text).toContain('<button type="submit">Turn on</button>');
    expect(page.text).toContain("Add a passkey");
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)/);
    // The same secret until it is confirmed.
    expect((await browser().get("/account/security").set("Cookie", session).expect(200)).text).toContain(
      secret,
    );
    await postForm("/account/security/totp", session).send({ code: "000000" }).expect(400);
    const codes = await postForm("/account/security/totp", session)
      .send({ code: codeOf(secret) })
      .expect(200);
    expect(codes.text.match(/<li><code>[a-z0-9-]{19}<\/code><\/li>/g)).toHaveLength(10);
    const after = await browser().get("/account/security").set("Cookie", session).expect(200);
    expect(after.text).toContain("Your authenticator app is on.");
    expect(after.text).not.toContain(secret);
    expect(await eventsOf("factor_added", user.user.id)).toHaveLength(1);
  });

  it("serves its scripts from this origin, as JavaScript, cached for a year", async () => {
    const page = await t.request.get("/account/security").redirects(0);
    expect(page.status).toBe(303);
    const user = await t.user({ organizationId });
    const html = (
      await browser()
        .get("/account/security")
        .set("Cookie", await t.signIn(user))
        .expect(200)
    ).text;
    const sources = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map(
      (match) => match[1] as string,
    );
    expect(sources).toHaveLength(2);
    for (const source of sources) {
      expect(source).toMatch(/^\/sign-in\/scripts\/(webauthn|passkey)\.[A-Za-z0-9_-]{12}\.js$/);
      const script = await browser().get(source).expect(200);
      expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
      expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
    await browser().get("/sign-in/scripts/passkey.nope.js").expect(404);
  });
});
