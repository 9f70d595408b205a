import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { TOKEN_CACHE_TTL_MS } from "../auth/authenticate.js";
import { SESSION_IDLE_MS, SESSION_MAX_AGE_MS } from "../auth/sessions.js";
import { bootstrapOwner } from "../bootstrap.js";
import { numberEvents } from "../events/numbering.js";
import { createMailer } from "../mail/index.js";
import { CONTENT_SECURITY_POLICY } from "../sites/index.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import { startSmtpServer, type TestSmtpServer } from "../testing/smtp.js";
import { urlsFor } from "../urls.js";

const ORIGIN = "http://quire.test";
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)/;

let t: TestApp;
let smtp: TestSmtpServer;
let organizationId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    mailer: createMailer({ smtpUrl: smtp.url, from: "Quire <quire@quire.test>" }, pino({ level: "silent" })),
  });
  ({ organizationId } = await t.organization());
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A browser of its own: no cookie but those a test sets. */
const browser = () => supertest(t.app);
const postForm = (path: string, headers: Record<string, string> = { Origin: ORIGIN }) =>
  browser().post(path).set(headers).type("form");
const cookieOf = (res: { headers: Record<string, unknown> }) =>
  [res.headers["set-cookie"] as string[] | string | undefined]
    .flat()
    .find((c) => c?.startsWith("quire_session="));
const sentBack = (cookie: string | undefined) => (cookie ?? "").split(";")[0] as string;

/** A member of the test organization with a password. */
async function member(password = "correct horse battery"): Promise<TestUser & { password: string }> {
  const user = await t.user({ organizationId, role: "create" });
  await t.setPassword(user, password);
  return { ...user, password };
}

const signIn = (user: { user: { email: string } }, password: string, next?: string) =>
  postForm("/sign-in").send({ email: user.user.email, password, ...(next && { next }) });

const linkIn = (text: string) => {
  const found = /http:\/\/quire\.test\/[^\s]+/.exec(text)?.[0];
  if (!found) throw new Error(`No link in: ${text}`);
  return found.slice(ORIGIN.length);
};

/** The events of a type, numbered first as a reader of the stream would. */
const eventsOf = async (type: string) => {
  await numberEvents(t.db);
  return t.db
    .selectFrom("events")
    .selectAll()
    .where("type", "=", type as never)
    .execute();
};

describe("the sign-in page", () => {
  it("asks for Email and Password, with a Sign in button, and runs no script", async () => {
    const res = await browser().get("/sign-in?next=/app/orgs/x").expect(200);
    expect(res.text).toMatch(/<label for="field-email">Email<\/label>/);
    expect(res.text).toMatch(/<label for="field-password">Password<\/label>/);
    expect(res.text).toContain('<button type="submit">Sign in</button>');
    expect(res.text).toContain('value="/app/orgs/x"');
    expect(res.text).not.toMatch(INLINE_SCRIPT);
    expect(res.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers["referrer-policy"]).toBe("same-origin");
  });

  it("signs in with the right password: a new HttpOnly, SameSite=Lax cookie, then next", async () => {
    const user = await member();
    const res = await signIn(user, user.password, "/app/spaces/s1").expect(303);
    expect(res.headers.location).toBe("/app/spaces/s1");
    const cookie = cookieOf(res) as string;
    expect(cookie).toMatch(/^quire_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/;");
    expect(cookie).toContain(`Max-Age=${SESSION_MAX_AGE_MS / 1000}`);
    expect(cookie).not.toContain("Secure");
    // The API knows the person by the cookie; only the secret's hash is stored.
    const me = await browser().get("/v1/user").set("Cookie", sentBack(cookie)).expect(200);
    expect(me.body.id).toBe(user.user.id);
    const rows = await t.db.selectFrom("sessions").selectAll().where("user_id", "=", user.user.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(sentBack(cookie).split("=")[1]);
    const signedIn = (await eventsOf("signed_in")).filter((e) => e.actor_id === user.user.id);
    expect(signedIn).toHaveLength(1);
    expect(JSON.parse(signedIn[0]?.data as string)).toMatchObject({
      method: "password",
      session: rows[0]?.id,
    });
  });

  it("gives a new session at every sign-in, whatever cookie the browser had (no fixation)", async () => {
    const user = await member();
    const first = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    const second = await postForm("/sign-in")
      .set("Cookie", first)
      .send({ email: user.user.email, password: user.password })
      .expect(303);
    expect(sentBack(cookieOf(second))).not.toBe(first);
    expect(
      await t.db.selectFrom("sessions").where("user_id", "=", user.user.id).select("id").execute(),
    ).toHaveLength(2);
  });

  it("marks the cookie Secure when the server is served over HTTPS", async () => {
    const user = await member();
    const app = createApp({ db: t.db, secretKey: t.secretKey, publicUrl: "https://docs.example" });
    const res = await supertest(app)
      .post("/sign-in")
      .set("Origin", "https://docs.example")
      .type("form")
      .send({ email: user.user.email, password: user.password })
      .expect(303);
    expect(cookieOf(res)).toContain("Secure");
  });

  it("answers a wrong password and an unknown email alike, opens no session, and audits the failure", async () => {
    const user = await member();
    const wrong = await signIn(user, "not the password").expect(401);
    const unknown = await postForm("/sign-in")
      .send({ email: "nobody@example.com", password: "whatever it is" })
      .expect(401);
    expect(wrong.text).toContain("That email and password do not match an account.");
    expect(unknown.text.replace(/value="[^"]*@[^"]*"/, "")).toBe(
      wrong.text.replace(/value="[^"]*@[^"]*"/, ""),
    );
    expect(cookieOf(wrong)).toBeUndefined();
    expect(
      await t.db.selectFrom("sessions").where("user_id", "=", user.user.id).select("id").execute(),
    ).toHaveLength(0);
    const failed = (await eventsOf("sign_in_failed")).map((e) => JSON.parse(e.data as string));
    expect(failed).toContainEqual({ operation: "signIn", method: "password", user: user.user.id });
    // A person without a password cannot sign in with one.
    const passwordless = await t.user({ organizationId });
    await signIn(passwordless, "").expect(400);
    await signIn(passwordless, "anything at all").expect(401);
  });

  it("never sends the person off the app: a foreign next goes to the app's home", async () => {
    const user = await member();
    for (const next of [
      "https://evil.example/app/x",
      "//evil.example/app/",
      "/\\evil.example",
      "/v1/orgs",
      "/app\\..\\x",
    ]) {
      const res = await signIn(user, user.password, next).expect(303);
      expect(res.headers.location, next).toBe("/app/");
    }
  });

  it("refuses a form posted from another site, and signs no one in or out", async () => {
    const user = await member();
    await postForm("/sign-in", { Origin: "https://evil.example" })
      .send({ email: user.user.email, password: user.password })
      .expect(403);
    await postForm("/sign-in", { "Sec-Fetch-Site": "cross-site" })
      .send({ email: user.user.email, password: user.password })
      .expect(403);
    await postForm("/sign-in", {}).send({ email: user.user.email, password: user.password }).expect(403);
    const cookie = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    await browser().post("/sign-out").set("Cookie", cookie).set("Origin", "https://evil.example").expect(403);
    await browser().get("/v1/user").set("Cookie", cookie).expect(200);
    await postForm("/sign-in", { "Sec-Fetch-Site": "same-origin" })
      .send({ email: user.user.email, password: user.password })
      .expect(303);
  });

  it("limits attempts per account: the eleventh in 15 minutes is refused, even with the right password", async () => {
    const user = await member();
    for (let attempt = 0; attempt < 10; attempt++) await signIn(user, "wrong password!").expect(401);
    const refused = await signIn(user, user.password).expect(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(cookieOf(refused)).toBeUndefined();
  });
});

describe("organizations that enforce single sign-on", () => {
  it("refuse their members a password or a link, once proved; their admins keep their password", async () => {
    const { organizationId: enforcing, admin } = await t.organization();
    await t.request.patch(`/v1/orgs/${enforcing}`).set(admin.auth).send({ sso: true }).expect(200);
    const member = await t.user({ organizationId: enforcing, role: "edit" });
    await t.setPassword(member, "the member's password");
    // A wrong password learns nothing of the rule.
    await signIn(member, "a wrong password").expect(401);
    const refused = await signIn(member, "the member's password").expect(403);
    expect(refused.text).toContain("signs its members in through single sign-on");
    expect(cookieOf(refused)).toBeUndefined();
    await postForm("/sign-in/email").send({ email: member.user.email }).expect(200);
    const link = linkIn((await smtp.next()).text).split("?")[0] as string;
    await postForm(link).send({}).expect(403);
    await t.setPassword(admin, "the admin's password");
    await signIn(admin, "the admin's password").expect(303);
  });
});

describe("sessions", () => {
  it("sign-out ends the session and clears the cookie", async () => {
    const user = await member();
    const cookie = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    const res = await browser().post("/sign-out").set("Cookie", cookie).set("Origin", ORIGIN).expect(303);
    expect(res.headers.location).toBe("/sign-in");
    expect(cookieOf(res)).toMatch(/^quire_session=; Max-Age=0; Path=\/;/);
    await browser().get("/v1/user").set("Cookie", cookie).expect(401);
    await browser().get("/app/").set("Cookie", cookie).expect(303);
  });

  it("ends after a week unused, and 30 days after sign-in however used", async () => {
    const user = await member();
    const idle = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    const busy = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    // Past the token cache after each step: each request below asks the database.
    const elapse = async (ms: number) => {
      t.clock.advance(ms);
      await sleep(TOKEN_CACHE_TTL_MS + 50);
    };
    const status = async (cookie: string) => (await browser().get("/v1/user").set("Cookie", cookie)).status;
    const sixDays = 6 * 24 * 60 * 60 * 1000;
    await elapse(sixDays);
    expect(await status(busy)).toBe(200);
    await elapse(sixDays);
    expect(SESSION_IDLE_MS).toBeLessThan(2 * sixDays);
    expect(await status(idle)).toBe(401);
    for (let day = 12; day < 30; day += 6) {
      expect(await status(busy), `day ${day}`).toBe(200);
      await elapse(sixDays);
    }
    // Day 30: the end, however used.
    expect(SESSION_MAX_AGE_MS).toBe(5 * sixDays);
    expect(await status(busy)).toBe(401);
  }, 30_000);

  it("lists the person's sessions, marks the current one, and revokes one or all", async () => {
    const user = await member();
    const a = sentBack(
      cookieOf(await signIn(user, user.password).set("User-Agent", "Firefox on a phone").expect(303)),
    );
    const b = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    // The second browser is new to the account: its owner is told.
    const told = await smtp.next();
    expect(told).toMatchObject({ to: [user.user.email], subject: "New sign-in to your Quire account" });
    expect(told.text).toContain("Device: ");
    expect(told.text).not.toContain("Firefox on a phone");
    const list = await browser().get("/v1/user/sessions").set("Cookie", a).expect(200);
    expect(list.body.items).toHaveLength(2);
    const current = list.body.items.find((s: { current: boolean }) => s.current);
    expect(current).toMatchObject({ object: "session", method: "password", device: "Firefox on a phone" });
    const other = list.body.items.find((s: { current: boolean }) => !s.current);
    // Revoking is a write with the cookie: from Quire's own pages, with the header.
    await browser().delete(`/v1/user/sessions/${other.id}`).set("Cookie", a).expect(403);
    await browser()
      .delete(`/v1/user/sessions/${other.id}`)
      .set({ Cookie: a, Origin: ORIGIN, "X-Quire-CSRF": "1" })
      .expect(204);
    await sleep(TOKEN_CACHE_TTL_MS + 50);
    await browser().get("/v1/user").set("Cookie", b).expect(401);
    await browser().get("/v1/user").set("Cookie", a).expect(200);
    await t.request.delete(`/v1/user/sessions/${other.id}`).set(user.auth).expect(404);
    // Someone else's session is as unknown as a missing one.
    const stranger = await member();
    await t.request.delete(`/v1/user/sessions/${current.id}`).set(stranger.auth).expect(404);
    await t.request.delete("/v1/user/sessions").set(user.auth).expect(204);
    await sleep(TOKEN_CACHE_TTL_MS + 50);
    await browser().get("/v1/user").set("Cookie", a).expect(401);
    expect((await t.request.get("/v1/user/sessions").set(user.auth).expect(200)).body.items).toEqual([]);
    const revoked = (await eventsOf("session_revoked")).filter((e) => e.actor_id === user.user.id);
    expect(revoked.map((e) => JSON.parse(e.data as string))).toEqual([
      { user: user.user.id, session: other.id },
      { user: user.user.id },
    ]);
    await browser().get("/v1/user/sessions").expect(401);
  });

  it("refuses a write with the cookie from another site, and changes nothing; bearer tokens are unaffected", async () => {
    const user = await member();
    const cookie = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    const create = (headers: Record<string, string>) =>
      browser().post(`/v1/orgs/${organizationId}/collections`).set(headers).send({ title: "Planted" });
    await create({ Cookie: cookie }).expect(403);
    await create({ Cookie: cookie, "X-Quire-CSRF": "1" }).expect(403);
    await create({ Cookie: cookie, Origin: "https://evil.example", "X-Quire-CSRF": "1" }).expect(403);
    await create({ Cookie: cookie, Origin: ORIGIN }).expect(403);
    const planted = await t.db
      .selectFrom("collections")
      .select("id")
      .where("title", "=", "Planted")
      .execute();
    expect(planted).toEqual([]);
    await create({ Cookie: cookie, Origin: ORIGIN, "X-Quire-CSRF": "1" }).expect(201);
    await create({ Cookie: cookie, "Sec-Fetch-Site": "same-origin", "X-Quire-CSRF": "1" }).expect(201);
    await create(user.auth).expect(201);
    // A bearer token wins over a cookie, and a bad one is not saved by it.
    await create({ Cookie: cookie, Authorization: "Bearer quire_nope" }).expect(401);
  });

  it("is seen revoked by another server process within a second", async () => {
    const user = await member();
    const cookie = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    const other = createApp({ db: t.db, secretKey: t.secretKey, clock: t.clock, publicUrl: ORIGIN });
    await supertest(other).get("/v1/user").set("Cookie", cookie).expect(200);
    await browser()
      .delete("/v1/user/sessions")
      .set({ Cookie: cookie, Origin: ORIGIN, "X-Quire-CSRF": "1" })
      .expect(204);
    await sleep(TOKEN_CACHE_TTL_MS);
    await supertest(other).get("/v1/user").set("Cookie", cookie).expect(401);
  });
});

describe("passwords", () => {
  it("changes with the current password, keeps this session and ends the others", async () => {
    const user = await member("first password!");
    const here = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    const elsewhere = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    const change = (body: object) =>
      browser()
        .put("/v1/user/password")
        .set({ Cookie: here, Origin: ORIGIN, "X-Quire-CSRF": "1" })
        .send(body);
    await change({ newPassword: "second password!" }).expect(400);
    await change({ currentPassword: "wrong one", newPassword: "second password!" }).expect(403);
    await change({ currentPassword: user.password, newPassword: "short" }).expect(400);
    await change({ currentPassword: user.password, newPassword: "second password!" }).expect(204);
    await sleep(TOKEN_CACHE_TTL_MS + 50);
    await browser().get("/v1/user").set("Cookie", here).expect(200);
    await browser().get("/v1/user").set("Cookie", elsewhere).expect(401);
    await signIn(user, user.password).expect(401);
    await signIn(user, "second password!").expect(303);
    await browser().put("/v1/user/password").send({ newPassword: "third password!" }).expect(401);
    const changed = (await eventsOf("password_changed")).filter((e) => e.actor_id === user.user.id);
    expect(changed.length).toBe(2);
  });

  it("resets by email: the link sets a new password once, and signs out every session", async () => {
    const user = await member("forgotten password");
    const old = sentBack(cookieOf(await signIn(user, user.password).expect(303)));
    await postForm("/reset-password").send({ email: user.user.email.toUpperCase() }).expect(200);
    const mail = await smtp.next();
    expect(mail.to).toEqual([user.user.email]);
    expect(mail.subject).toBe("Reset your Quire password");
    const link = linkIn(mail.text);
    const page = await browser().get(link).expect(200);
    expect(page.text).toMatch(/<label for="field-password">New password<\/label>/);
    await postForm(link).send({ password: "short" }).expect(400);
    const res = await postForm(link).send({ password: "remembered password" }).expect(303);
    expect(cookieOf(res)).toBeDefined();
    await sleep(TOKEN_CACHE_TTL_MS + 50);
    await browser().get("/v1/user").set("Cookie", old).expect(401);
    await browser()
      .get("/v1/user")
      .set("Cookie", sentBack(cookieOf(res)))
      .expect(200);
    await signIn(user, "remembered password").expect(303);
    await signIn(user, "forgotten password").expect(401);
    // Used once.
    await browser().get(link).expect(410);
    await postForm(link).send({ password: "another password" }).expect(410);
  });

  it("answers an unknown email as a known one, and mails no one", async () => {
    const before = smtp.received.length;
    const res = await postForm("/reset-password").send({ email: "stranger@example.com" }).expect(200);
    expect(res.text).toContain("If an account has this email, a link is on its way to it.");
    await sleep(200);
    expect(smtp.received.length).toBe(before);
  });
});

describe("sign-in links", () => {
  it("sign in once, within 15 minutes, after a button (a mail scanner opening the link uses nothing)", async () => {
    const user = await member();
    await postForm("/sign-in/email").send({ email: user.user.email, next: "/app/orgs/o1" }).expect(200);
    const mail = await smtp.next();
    expect(mail.subject).toBe("Your sign-in link for Quire");
    const link = linkIn(mail.text);
    const page = await browser().get(link).expect(200);
    expect(page.text).toContain(`This link signs you in as ${user.user.email}.`);
    await browser().get(link).expect(200);
    const path = link.split("?")[0] as string;
    await postForm(path, { Origin: "https://evil.example" }).send({ next: "/app/orgs/o1" }).expect(403);
    const res = await postForm(path).send({ next: "/app/orgs/o1" }).expect(303);
    expect(res.headers.location).toBe("/app/orgs/o1");
    const cookie = sentBack(cookieOf(res));
    await browser().get("/v1/user").set("Cookie", cookie).expect(200);
    await postForm(path).send({}).expect(410);
    const sessions = await browser().get("/v1/user/sessions").set("Cookie", cookie).expect(200);
    expect(sessions.body.items[0]).toMatchObject({ method: "link", current: true });
    // An expired link.
    await postForm("/sign-in/email").send({ email: user.user.email }).expect(200);
    const late = linkIn((await smtp.next()).text).split("?")[0] as string;
    t.clock.advance(15 * 60 * 1000);
    await browser().get(late).expect(410);
    await postForm(late).send({}).expect(410);
    await browser().get("/sign-in/link/not-a-token").expect(410);
  });

  it("opens the app as the owner from the first start's printed URL", async () => {
    const fresh = await createTestApp();
    try {
      const services = { clock: fresh.clock, ids: fresh.ids, urls: urlsFor(ORIGIN) };
      const first = await bootstrapOwner(fresh.db, services, "owner@example.com");
      expect(first?.signInUrl).toMatch(/^http:\/\/quire\.test\/sign-in\/link\/[A-Za-z0-9_-]{43}$/);
      const path = (first?.signInUrl ?? "").slice(ORIGIN.length);
      const res = await supertest(fresh.app)
        .post(path)
        .set("Origin", ORIGIN)
        .type("form")
        .send({})
        .expect(303);
      expect(res.headers.location).toBe("/app/");
      const me = await supertest(fresh.app)
        .get("/v1/user")
        .set("Cookie", sentBack(cookieOf(res)))
        .expect(200);
      expect(me.body.email).toBe("owner@example.com");
      await supertest(fresh.app).post(path).set("Origin", ORIGIN).type("form").send({}).expect(410);
      expect(await bootstrapOwner(fresh.db, services, "owner@example.com")).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});
