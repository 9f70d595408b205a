import { pino } from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "../mail/index.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../testing/smtp.js";

const ORIGIN = "http://quire.test";
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const GONE = "This invitation has expired or was already used";

let t: TestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    mailer: createMailer({ smtpUrl: smtp.url, from: "Quire <quire@quire.test>" }, pino({ level: "silent" })),
  });
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A browser of its own: no cookie but those a test sets. */
const browser = () => supertest(t.app);
const postForm = (path: string, headers: Record<string, string> = { Origin: ORIGIN }) =>
  browser().post(path).set(headers).type("form");
const sessionCookieOf = (res: { headers: Record<string, unknown> }) =>
  ([res.headers["set-cookie"]].flat() as Array<string | undefined>)
    .find((c) => c?.startsWith("quire_session="))
    ?.split(";")[0];

/** The path of the invitation link a mail carries. */
const linkIn = (mail: ReceivedMail) => {
  const found = /http:\/\/quire\.test\/join\/[^\s]+/.exec(mail.text)?.[0];
  if (!found) throw new Error(`No invitation link in: ${mail.text}`);
  return found.slice(ORIGIN.length);
};

/** An organization whose admin invites `email` with `role`, and the mail that invitation sent. */
async function invite(email: string, role = "edit", settings: { sso?: boolean } = {}) {
  const { organizationId, admin } = await t.organization();
  await t.request.patch(`/v1/orgs/${organizationId}`).set(admin.auth).send(settings).expect(200);
  const title = (await t.request.get(`/v1/orgs/${organizationId}`).set(admin.auth).expect(200)).body.title;
  await t.request
    .post(`/v1/orgs/${organizationId}/invites`)
    .set(admin.auth)
    .send({ emails: [email], role })
    .expect(200);
  const mail = await smtp.next();
  return { organizationId, admin, title: title as string, mail, path: linkIn(mail) };
}

const memberRole = async (organizationId: string, admin: TestUser, userId: string) =>
  (await t.request.get(`/v1/orgs/${organizationId}/members/${userId}`).set(admin.auth).expect(200)).body.role;

describe("an invitation by email", () => {
  it("mails a link where a new person chooses a name and a password, and joins once", async () => {
    const { organizationId, admin, title, mail, path } = await invite("Newcomer@Example.org");
    expect(mail.to).toEqual(["newcomer@example.org"]);
    expect(mail.subject).toContain(title);
    expect(mail.text).toContain(`${admin.user.display_name} invited you to join ${title}`);

    const page = await browser().get(path).expect(200);
    expect(page.text).toMatch(/<label for="field-name">Name<\/label>/);
    expect(page.text).toMatch(/<label for="field-password">Password<\/label>/);
    expect(page.text).toContain('<button type="submit">Join</button>');

    const form = { name: "Ada Newcomer", password: "a long enough password" };
    await postForm(path, { Origin: "http://evil.test" }).send(form).expect(403);
    const weak = await postForm(path)
      .send({ ...form, password: "short" })
      .expect(400);
    expect(weak.text).toContain('role="alert"');
    await postForm(path)
      .send({ ...form, name: " " })
      .expect(400);

    const joined = await postForm(path).send(form).expect(303);
    expect(joined.headers.location).toBe("/app/");
    const cookie = sessionCookieOf(joined);
    expect(cookie).toBeDefined();
    const me = await browser()
      .get("/v1/user")
      .set("Cookie", cookie ?? "")
      .expect(200);
    expect(me.body).toMatchObject({ email: "newcomer@example.org", displayName: "Ada Newcomer" });
    expect(await memberRole(organizationId, admin, me.body.id)).toBe("edit");

    expect((await browser().get(path).expect(410)).text).toContain(GONE);
    await postForm(path).send(form).expect(410);
  });

  it("is refused once expired or revoked, and for an unknown token", async () => {
    const expired = await invite("late@example.org");
    t.clock.advance(WEEK_MS + 1);
    expect((await browser().get(expired.path).expect(410)).text).toContain(GONE);
    await postForm(expired.path).send({ name: "Late", password: "a long enough password" }).expect(410);

    const revoked = await invite("revoked@example.org");
    const users = await t.request
      .get(`/v1/orgs/${revoked.organizationId}/members`)
      .set(revoked.admin.auth)
      .expect(200);
    const invited = users.body.items.find(
      (m: { user: { email: string } }) => m.user.email === "revoked@example.org",
    );
    await t.request
      .delete(`/v1/orgs/${revoked.organizationId}/members/${invited.user.id}`)
      .set(revoked.admin.auth)
      .expect(204);
    await browser().get(revoked.path).expect(410);

    await browser().get("/join/not-a-token").expect(410);
  });

  it("lets an existing account join once signed in as the invited email", async () => {
    const existing = await t.user();
    const cookie = await t.signIn(existing);
    const { organizationId, admin, title, path } = await invite(existing.user.email, "comment");

    const signedOut = await browser().get(path).expect(200);
    expect(signedOut.text).toContain(`Sign in as ${existing.user.email} to join ${title}`);
    expect(signedOut.text).toContain(`/sign-in?next=${encodeURIComponent(path)}`);
    expect(signedOut.text).not.toContain("field-password");

    const someone = await t.user();
    const wrong = await browser()
      .get(path)
      .set("Cookie", await t.signIn(someone))
      .expect(403);
    expect(wrong.text).toContain(`This invitation is for ${existing.user.email}`);

    const page = await browser().get(path).set("Cookie", cookie).expect(200);
    expect(page.text).toContain('<button type="submit">Join</button>');
    const joined = await postForm(path).set("Cookie", cookie).expect(303);
    expect(joined.headers.location).toBe("/app/");
    expect(await memberRole(organizationId, admin, existing.user.id)).toBe("comment");
    await browser().get(path).set("Cookie", cookie).expect(410);
  });

  it("sends a new person to single sign-on, not to a password, where the organization enforces it", async () => {
    const { path } = await invite("sso.person@example.org", "edit", { sso: true });
    const page = await browser().get(path).expect(200);
    expect(page.text).toContain("single sign-on");
    expect(page.text).not.toContain("field-password");
    await postForm(path).send({ name: "SSO Person", password: "a long enough password" }).expect(403);
  });
});

describe("an invite link's page", () => {
  it("asks a signed-out person to sign in, and lets a signed-in one join", async () => {
    const { organizationId, admin } = await t.organization();
    await t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(admin.auth)
      .send({ inviteLinks: true })
      .expect(200);
    const created = await t.request
      .post(`/v1/orgs/${organizationId}/link-invites`)
      .set(admin.auth)
      .send({ role: "review" })
      .expect(201);
    const path = `/join/link/${created.body.id}`;

    const signedOut = await browser().get(path).expect(200);
    expect(signedOut.text).toContain(`/sign-in?next=${encodeURIComponent(path)}`);

    const visitor = await t.user();
    const cookie = await t.signIn(visitor);
    const page = await browser().get(path).set("Cookie", cookie).expect(200);
    expect(page.text).toContain('<button type="submit">Join</button>');
    await postForm(path, { Origin: "http://evil.test" }).set("Cookie", cookie).expect(403);
    const joined = await postForm(path).set("Cookie", cookie).expect(303);
    expect(joined.headers.location).toBe("/app/");
    expect(await memberRole(organizationId, admin, visitor.user.id)).toBe("review");

    await t.request.delete(`/v1/orgs/${organizationId}/link-invites/${created.body.id}`).set(admin.auth);
    await browser().get(path).set("Cookie", cookie).expect(410);
  });
});
