import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSite,
  createSiteScenario,
  createStrangerSite,
  type SiteScenario,
  sitePath,
} from "./testing.js";

let s: SiteScenario;
beforeAll(async () => {
  s = await createSiteScenario();
});
afterAll(() => s.t.close());

const linksPath = (siteId: string, rest = "") => sitePath(s.organizationId, siteId, `/share-links${rest}`);
const authPath = (siteId: string, rest = "") => sitePath(s.organizationId, siteId, `/publishing/auth${rest}`);

describe("share links", () => {
  it("creates, lists, searches, renames, revokes and deletes share links", async () => {
    const site = await createSite(s);
    await s.t.request
      .post(sitePath(s.organizationId, site.id, "/publish"))
      .set(s.admin.auth)
      .expect(200);
    const create = async (name: string) =>
      await s.t.request.post(linksPath(site.id)).set(s.admin.auth).send({ name }).expect(201);
    const reviewers = await create("Reviewers");
    expect(reviewers.headers.location).toBe(
      `http://quire.test${linksPath(site.id, `/${reviewers.body.id}`)}`,
    );
    expect(reviewers.body).toMatchObject({ object: "share-link", name: "Reviewers", active: true });
    const key = new URL(reviewers.body.urls.published).searchParams.get("share") ?? "";
    expect(key.length).toBeGreaterThanOrEqual(20);
    const partners = await create("Partners 100%");
    expect(new URL(partners.body.urls.published).searchParams.get("share")).not.toBe(key);

    const list = async (query = "") =>
      (await s.t.request.get(linksPath(site.id, query)).set(s.admin.auth).expect(200)).body;
    expect((await list()).items.map((l: { id: string }) => l.id)).toEqual([
      reviewers.body.id,
      partners.body.id,
    ]);
    expect((await list("?search=REVIEW")).items.map((l: { id: string }) => l.id)).toEqual([
      reviewers.body.id,
    ]);
    expect((await list("?search=100%25")).items.map((l: { id: string }) => l.id)).toEqual([partners.body.id]);
    expect((await list(`?search=${key}`)).items.map((l: { id: string }) => l.id)).toEqual([
      reviewers.body.id,
    ]);
    expect((await list("?limit=1")).next).toBeDefined();

    const revoked = await s.t.request
      .patch(linksPath(site.id, `/${reviewers.body.id}`))
      .set(s.admin.auth)
      .send({ active: false, name: "Old reviewers" })
      .expect(200);
    expect(revoked.body).toMatchObject({ active: false, name: "Old reviewers", urls: {} });
    expect(revoked.body.urls.published).toBeUndefined();
    expect((await list()).items[0]).toEqual(revoked.body);

    await s.t.request
      .delete(linksPath(site.id, `/${partners.body.id}`))
      .set(s.admin.auth)
      .expect(204);
    await s.t.request
      .delete(linksPath(site.id, `/${partners.body.id}`))
      .set(s.admin.auth)
      .expect(404);
    expect((await list()).count).toBe(1);
  });

  it("answers 404, 403 to a creator and 400", async () => {
    const site = await createSite(s);
    const theirs = await createStrangerSite(s);
    const link = (
      await s.t.request.post(linksPath(site.id)).set(s.admin.auth).send({ name: "L" }).expect(201)
    ).body;
    const one = linksPath(site.id, `/${link.id}`);
    await s.t.request.get(linksPath(site.id)).set(s.outsider.auth).expect(404);
    await s.t.request.post(linksPath(theirs.id)).set(s.admin.auth).send({ name: "x" }).expect(404);
    await s.t.request.patch(linksPath(site.id, "/missing")).set(s.admin.auth).send({ name: "x" }).expect(404);
    await s.t.request.delete(linksPath(site.id, "/missing")).set(s.admin.auth).expect(404);
    await s.t.request.get(linksPath(site.id)).set(s.creator.auth).expect(403);
    await s.t.request.post(linksPath(site.id)).set(s.creator.auth).send({ name: "x" }).expect(403);
    await s.t.request.patch(one).set(s.creator.auth).send({ name: "x" }).expect(403);
    await s.t.request.delete(one).set(s.creator.auth).expect(403);
    await s.t.request.post(linksPath(site.id)).set(s.admin.auth).send({}).expect(400);
    await s.t.request
      .post(linksPath(site.id))
      .set(s.admin.auth)
      .send({ name: "n".repeat(51) })
      .expect(400);
    await s.t.request.patch(one).set(s.admin.auth).send({ active: "no" }).expect(400);
    const read = await s.t.request.get(linksPath(site.id)).set(s.admin.auth).expect(200);
    expect(read.body.items).toEqual([expect.objectContaining({ id: link.id, name: "L", active: true })]);
  });
});

describe("visitor authentication", () => {
  it("gives the signing key to administrators, changes the settings and regenerates the key", async () => {
    const site = await createSite(s);
    const initial = await s.t.request.get(authPath(site.id)).set(s.admin.auth).expect(200);
    expect(initial.body).toEqual({
      object: "publishing-auth",
      backend: "custom",
      privateKey: expect.any(String),
    });
    const key: string = initial.body.privateKey;
    expect(Buffer.from(key, "base64url").length).toBe(32);
    // Stored encrypted: the row never holds the key itself.
    const row = await s.t.db
      .selectFrom("sites")
      .select("auth_key")
      .where("id", "=", site.id)
      .executeTakeFirstOrThrow();
    expect(row.auth_key).not.toContain(key);

    const updated = await s.t.request
      .patch(authPath(site.id))
      .set(s.admin.auth)
      .send({
        backend: "custom",
        fallbackURL: "https://login.example.com/",
        logoutURL: "https://login.example.com/out",
      })
      .expect(200);
    expect(updated.body).toEqual({
      object: "publishing-auth",
      backend: "custom",
      privateKey: key,
      fallbackURL: "https://login.example.com/",
      logoutURL: "https://login.example.com/out",
    });
    const cleared = await s.t.request
      .patch(authPath(site.id))
      .set(s.admin.auth)
      .send({ backend: "integration", fallbackURL: null })
      .expect(200);
    expect(cleared.body).toEqual({
      object: "publishing-auth",
      backend: "integration",
      privateKey: key,
      logoutURL: "https://login.example.com/out",
    });

    const regenerated = await s.t.request
      .post(authPath(site.id, "/regenerate"))
      .set(s.admin.auth)
      .expect(200);
    expect(regenerated.body.privateKey).not.toBe(key);
    const read = await s.t.request.get(authPath(site.id)).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(regenerated.body);
    const other = await createSite(s);
    expect((await s.t.request.get(authPath(other.id)).set(s.admin.auth)).body.privateKey).not.toBe(
      read.body.privateKey,
    );
  });

  it("answers 404, 403 to a creator and 400, changing nothing", async () => {
    const site = await createSite(s);
    const before = (await s.t.request.get(authPath(site.id)).set(s.admin.auth)).body;
    for (const [method, path] of [
      ["get", authPath(site.id)],
      ["patch", authPath(site.id)],
      ["post", authPath(site.id, "/regenerate")],
    ] as const) {
      const body = { backend: "custom" };
      await s.t.request[method](path).set(s.outsider.auth).send(body).expect(404);
      await s.t.request[method](path).set(s.creator.auth).send(body).expect(403);
      await s.t.request[method](path).set(s.reader.auth).send(body).expect(403);
    }
    await s.t.request.patch(authPath(site.id)).set(s.admin.auth).send({}).expect(400);
    await s.t.request.patch(authPath(site.id)).set(s.admin.auth).send({ backend: "ldap" }).expect(400);
    await s.t.request
      .patch(authPath(site.id))
      .set(s.admin.auth)
      .send({ backend: "custom", fallbackURL: "not a url" })
      .expect(400);
    expect((await s.t.request.get(authPath(site.id)).set(s.admin.auth)).body).toEqual(before);
  });
});
