import { setTimeout as sleep } from "node:timers/promises";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN_CACHE_TTL_MS } from "../auth/authenticate.js";
import { numberEvents } from "../events/numbering.js";
import { createTestApp, type TestApp } from "../testing/harness.js";

const ORIGIN = "http://quire.test";

let t: TestApp;
let organizationId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId } = await t.organization());
});

afterAll(() => t.close());

const member = () => t.user({ organizationId, role: "read" });
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
const eventsOf = async (type: "token_created" | "token_revoked") => {
  await numberEvents(t.db);
  return t.db.selectFrom("events").selectAll().where("type", "=", type).execute();
};

describe("PATCH /v1/user", () => {
  it("renames the caller, trimmed, and answers as GET /v1/user does", async () => {
    const user = await member();
    const res = await t.request
      .patch("/v1/user")
      .set(user.auth)
      .send({ displayName: "  Ada Lovelace " })
      .expect(200);
    expect(res.body).toMatchObject({ object: "user", id: user.user.id, displayName: "Ada Lovelace" });
    // At once, though the token is remembered for a second.
    expect((await t.request.get("/v1/user").set(user.auth).expect(200)).body).toEqual(res.body);
    await sleep(TOKEN_CACHE_TTL_MS + 50);
    expect((await t.request.get("/v1/user").set(user.auth).expect(200)).body).toEqual(res.body);
  });

  it("takes the session cookie with the CSRF header, and refuses it without", async () => {
    const user = await member();
    const cookie = await t.signIn(user);
    const browser = () => supertest(t.app).patch("/v1/user").set("Cookie", cookie);
    await browser().send({ displayName: "Planted" }).expect(403);
    await browser()
      .set({ Origin: ORIGIN, "X-Quire-CSRF": "1" })
      .send({ displayName: "Grace Hopper" })
      .expect(200);
    const read = await supertest(t.app).get("/v1/user").set("Cookie", cookie).expect(200);
    expect(read.body.displayName).toBe("Grace Hopper");
  });

  it("refuses an empty, blank or too long name (400), and a caller without credentials (401)", async () => {
    const user = await member();
    const before = (await t.request.get("/v1/user").set(user.auth).expect(200)).body.displayName;
    for (const displayName of ["", "   ", "x".repeat(101)])
      await t.request.patch("/v1/user").set(user.auth).send({ displayName }).expect(400);
    await t.request.patch("/v1/user").set(user.auth).send({}).expect(400);
    await t.request.patch("/v1/user").send({ displayName: "Nobody" }).expect(401);
    await t.request
      .patch("/v1/user")
      .set(user.auth)
      .send({ displayName: "x".repeat(100) })
      .expect(200);
    await t.request.patch("/v1/user").set(user.auth).send({ displayName: before }).expect(200);
    const row = await t.db
      .selectFrom("users")
      .select("display_name")
      .where("id", "=", user.user.id)
      .executeTakeFirst();
    expect(row?.display_name).toBe(before);
  });
});

describe("the caller's API tokens", () => {
  it("creates one whose secret is shown once and works, lists it without it, and revokes it", async () => {
    const user = await member();
    const created = await t.request
      .post("/v1/user/tokens")
      .set(user.auth)
      .send({ label: " CI deploy " })
      .expect(201);
    expect(created.body).toMatchObject({ object: "api-token", label: "CI deploy" });
    const { secret, ...token } = created.body as { secret: string; id: string };
    expect(secret).toMatch(/^quire_/);
    expect((await t.request.get("/v1/user").set(bearer(secret)).expect(200)).body.id).toBe(user.user.id);

    const listed = await t.request.get("/v1/user/tokens").set(user.auth).expect(200);
    // The harness's own token first (oldest first), then the new one; no secret or hash anywhere.
    expect(listed.body.items.at(-1)).toEqual(token);
    expect(listed.body.items).toHaveLength(2);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(JSON.stringify(listed.body)).not.toMatch(/secret|hash/i);

    await t.request.delete(`/v1/user/tokens/${token.id}`).set(user.auth).expect(204);
    await sleep(TOKEN_CACHE_TTL_MS + 50);
    await t.request.get("/v1/user").set(bearer(secret)).expect(401);
    await t.request.delete(`/v1/user/tokens/${token.id}`).set(user.auth).expect(404);
    expect((await t.request.get("/v1/user/tokens").set(user.auth).expect(200)).body.items).toHaveLength(1);

    // The caller is the actor of both events, which name the token, never its secret.
    for (const type of ["token_created", "token_revoked"] as const) {
      const [event] = (await eventsOf(type)).filter((e) => JSON.parse(e.data as string).token === token.id);
      expect(event?.actor_id, type).toBe(user.user.id);
      expect(String(event?.data)).not.toContain(secret);
    }
  });

  it("lets a token make a token, and a session with the CSRF header", async () => {
    const user = await member();
    const fromToken = await t.request
      .post("/v1/user/tokens")
      .set(user.auth)
      .send({ label: "by token" })
      .expect(201);
    await t.request.get("/v1/user/tokens").set(bearer(fromToken.body.secret)).expect(200);
    const cookie = await t.signIn(user);
    await supertest(t.app)
      .post("/v1/user/tokens")
      .set("Cookie", cookie)
      .send({ label: "planted" })
      .expect(403);
    await supertest(t.app)
      .post("/v1/user/tokens")
      .set({ Cookie: cookie, Origin: ORIGIN, "X-Quire-CSRF": "1" })
      .send({ label: "by session" })
      .expect(201);
    const labels = (await t.request.get("/v1/user/tokens").set(user.auth).expect(200)).body.items.map(
      (item: { label: string }) => item.label,
    );
    expect(labels.slice(1)).toEqual(["by token", "by session"]);
  });

  it("is each person's own: another's token is unknown (404) and stays working", async () => {
    const user = await member();
    const stranger = await member();
    const theirs = await t.request
      .post("/v1/user/tokens")
      .set(stranger.auth)
      .send({ label: "theirs" })
      .expect(201);
    await t.request.delete(`/v1/user/tokens/${theirs.body.id}`).set(user.auth).expect(404);
    await t.request.delete("/v1/user/tokens/no-such-token").set(user.auth).expect(404);
    await t.request.get("/v1/user").set(bearer(theirs.body.secret)).expect(200);
    const mine = (await t.request.get("/v1/user/tokens").set(user.auth).expect(200)).body.items;
    expect(mine.map((item: { id: string }) => item.id)).not.toContain(theirs.body.id);
  });

  it("refuses a missing, blank or too long label (400), and a caller without credentials (401)", async () => {
    const user = await member();
    for (const body of [{}, { label: "" }, { label: "  " }, { label: "x".repeat(101) }])
      await t.request.post("/v1/user/tokens").set(user.auth).send(body).expect(400);
    expect((await t.request.get("/v1/user/tokens").set(user.auth).expect(200)).body.items).toHaveLength(1);
    await t.request.get("/v1/user/tokens").expect(401);
    await t.request.post("/v1/user/tokens").send({ label: "x" }).expect(401);
    await t.request.delete("/v1/user/tokens/x").expect(401);
  });
});
