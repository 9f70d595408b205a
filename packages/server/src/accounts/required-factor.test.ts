import { setTimeout as sleep } from "node:timers/promises";
import { Secret, TOTP } from "otpauth";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_CACHE_TTL_MS } from "../auth/authenticate.js";
import { createTestApp, type TestApp, type TestUser } from "../testing/harness.js";

const ORIGIN = "http://quire.test";
const PASSWORD = "correct horse battery";
const STEP_MS = 30_000;

let t: TestApp;
let organizationId: string;
let organizationTitle: string;
let admin: TestUser;
/** A member who added an authenticator app before the organization required one. */
let secured: TestUser;

/** The authenticator app's code of now, on the app's clock. */
const codeOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });

/** Turns an authenticator app on for the user, through the API. */
async function addTotp(user: TestUser): Promise<void> {
  const { body: setup } = await t.request.post("/v1/user/factors/totp").set(user.auth).expect(200);
  await t.request
    .post("/v1/user/factors/totp/confirm")
    .set(user.auth)
    .send({ code: codeOf(setup.secret) })
    .expect(200);
  // A code works once: the next user's comes from the next step.
  t.clock.advance(STEP_MS);
}

/** Signs in with the password, asking for the app: where it leads, and the session's cookie. */
async function signIn(user: TestUser): Promise<{ location: string; cookie: string }> {
  const res = await supertest(t.app)
    .post("/sign-in")
    .set("Origin", ORIGIN)
    .type("form")
    .send({ email: user.user.email, password: PASSWORD, next: "/app/" })
    .expect(303);
  const cookie = [res.headers["set-cookie"]].flat().find((c) => c?.startsWith("quire_session="));
  return { location: res.headers.location as string, cookie: (cookie ?? "").split(";")[0] as string };
}

const memberWithPassword = async (options: { organizationId: string }) => {
  const user = await t.user({ ...options, role: "create" });
  await t.setPassword(user, PASSWORD);
  return user;
};

const require2fa = (by: TestUser, value: boolean) =>
  t.request.patch(`/v1/orgs/${organizationId}`).set(by.auth).send({ requireSecondFactor: value });

const listSpaces = (credential: Record<string, string>, orgId = organizationId) =>
  t.request.get(`/v1/orgs/${orgId}/spaces`).set(credential);

/** Lets every cached credential be read again, with what the database now says. */
const pastCache = () => sleep(TOKEN_CACHE_TTL_MS + 50);

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, admin } = await t.organization());
  const { body } = await t.request.get(`/v1/orgs/${organizationId}`).set(admin.auth).expect(200);
  organizationTitle = body.title;
  secured = await memberWithPassword({ organizationId });
  await addTotp(secured);
});

afterAll(() => t.close());

describe("an organization requiring a second factor", () => {
  it("is turned on by an admin with a factor of their own, and read back; not by anyone else", async () => {
    const before = await t.request.get(`/v1/orgs/${organizationId}`).set(admin.auth).expect(200);
    expect(before.body.requireSecondFactor).toBe(false);

    const refused = await require2fa(secured, true).expect(403);
    expect(refused.body.error.type).toBe("forbidden");
    // Without a factor, requiring one would lock the admin out with the rest.
    const lacking = await require2fa(admin, true).expect(403);
    expect(lacking.body.error.type).toBe("second_factor_required");

    await addTotp(admin);
    const updated = await require2fa(admin, true).expect(200);
    expect(updated.body.requireSecondFactor).toBe(true);
    const read = await t.request.get(`/v1/orgs/${organizationId}`).set(admin.auth).expect(200);
    expect(read.body.requireSecondFactor).toBe(true);
  });

  it("signs a member without a factor in to the security page, with the notice, and refuses them the rest of the API until they add one", async () => {
    const member = await memberWithPassword({ organizationId });
    // Their token was read before the organization's rule applied to them.
    await pastCache();

    const { location, cookie } = await signIn(member);
    expect(location).toBe("/account/security");
    const page = await t.request.get("/account/security").set("Cookie", cookie).expect(200);
    expect(page.text).toContain(
      `<p role="alert">${organizationTitle} requires a second factor: add one to continue.</p>`,
    );

    for (const credential of [{ Cookie: cookie }, member.auth]) {
      const refused = await listSpaces(credential).expect(403);
      expect(refused.body.error.type).toBe("second_factor_required");
      await t.request.get("/v1/user").set(credential).expect(200);
      await t.request.get("/v1/user/factors").set(credential).expect(200);
      await t.request.get("/v1/user/sessions").set(credential).expect(200);
    }
    // The app's previews send them to the security page too.
    const preview = await t.request.get(`/app/orgs/${organizationId}`).set("Cookie", cookie).expect(303);
    expect(preview.headers.location).toBe("/account/security");

    // An authenticator app set up but not confirmed is no factor yet.
    const { body: setup } = await t.request.post("/v1/user/factors/totp").set(member.auth).expect(200);
    await pastCache();
    await listSpaces(member.auth).expect(403);

    await t.request
      .post("/v1/user/factors/totp/confirm")
      .set(member.auth)
      .send({ code: codeOf(setup.secret) })
      .expect(200);
    await pastCache();
    await listSpaces(member.auth).expect(200);
    await listSpaces({ Cookie: cookie }).expect(200);
    await t.request.get(`/app/orgs/${organizationId}`).set("Cookie", cookie).expect(200);
    const after = await t.request.get("/account/security").set("Cookie", cookie).expect(200);
    expect(after.text).not.toContain("requires a second factor");
  });

  it("leaves a member with a factor, and the members of other organizations, alone", async () => {
    await listSpaces(secured.auth).expect(200);
    expect((await signIn(secured)).location).toBe("/sign-in/second-factor");

    const other = await t.organization();
    const outsider = await memberWithPassword({ organizationId: other.organizationId });
    await listSpaces(outsider.auth, other.organizationId).expect(200);
    const { location, cookie } = await signIn(outsider);
    expect(location).toBe("/app/");
    await listSpaces({ Cookie: cookie }, other.organizationId).expect(200);
  });

  it("lifts once turned off", async () => {
    const member = await memberWithPassword({ organizationId });
    await pastCache();
    await listSpaces(member.auth).expect(403);

    const updated = await require2fa(admin, false).expect(200);
    expect(updated.body.requireSecondFactor).toBe(false);
    await pastCache();
    await listSpaces(member.auth).expect(200);
    expect((await signIn(member)).location).toBe("/app/");
  });
});
