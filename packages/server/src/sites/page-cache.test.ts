import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { sql } from "kysely";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ContentScenario, createContentScenario, insertPage } from "../change-requests/testing.js";
import { type Db, openDatabase } from "../db/database.js";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";
import { fingerprintOf, PAGE_CHECK_WINDOW_MS, PageCache } from "./page-cache.js";
import { siteVisits } from "./testing.js";

describe("the page cache", () => {
  let database: TestDatabase;
  let other: Db;
  let now = 0;
  let cache: PageCache;
  beforeAll(async () => {
    database = await openTestDatabase();
    await sql`create table probe (id integer)`.execute(database.db);
    // A second connection stands for another server process on the same database.
    other = openDatabase({ location: database.location });
    cache = new PageCache(database.db, () => now);
  });
  afterAll(async () => {
    await other.destroy();
    await database.close();
  });

  const page = (html: string, expiresAt?: number) => ({
    fingerprint: fingerprintOf(html),
    html,
    headers: { "Cache-Control": "public, no-cache" },
    ...(expiresAt !== undefined && { expiresAt }),
  });

  it("sends a kept page without a check until the window passes, then only if it is made from the same", async () => {
    await cache.keep("a", page("<p>one</p>"), cache.writes(), []);
    now += PAGE_CHECK_WINDOW_MS / 2;
    expect((await cache.fresh("a", 0, []))?.body.toString()).toBe("<p>one</p>");
    // Another process writes: unseen until the window has passed.
    await sql`insert into probe values (1)`.execute(other);
    expect(await cache.fresh("a", 0, [])).toBeDefined();
    now += PAGE_CHECK_WINDOW_MS;
    expect(await cache.fresh("a", 0, [])).toBeUndefined();
    const writes = cache.writes();
    expect(await cache.current("a", fingerprintOf("<p>two</p>"), writes, [])).toBeUndefined();
    expect((await cache.current("a", fingerprintOf("<p>one</p>"), writes, []))?.body.toString()).toBe(
      "<p>one</p>",
    );
    // Found current again: fresh for another window.
    expect(await cache.fresh("a", 0, [])).toBeDefined();
  });

  it("checks again at once after a write through this process", async () => {
    await cache.keep("b", page("<p>b</p>"), cache.writes(), []);
    expect(await cache.fresh("b", 0, [])).toBeDefined();
    await sql`insert into probe values (2)`.execute(database.db);
    expect(await cache.fresh("b", 0, [])).toBeUndefined();
    // A read is no write.
    await cache.keep("b", page("<p>b</p>"), cache.writes(), []);
    await database.db
      .selectFrom("probe" as never)
      .selectAll()
      .execute();
    expect(await cache.fresh("b", 0, [])).toBeDefined();
  });

  it("keeps nothing read before a write it did not see the end of", async () => {
    const before = cache.writes();
    await sql`insert into probe values (3)`.execute(database.db);
    await cache.keep("c", page("<p>c</p>"), before, []);
    expect(await cache.fresh("c", 0, [])).toBeUndefined();
  });

  it("never sends a page made for a visitor token past the token's expiry", async () => {
    await cache.keep("d", page("<p>d</p>", 1000), cache.writes(), []);
    expect(await cache.fresh("d", 999, [])).toBeDefined();
    expect(await cache.fresh("d", 1000, [])).toBeUndefined();
  });

  it("compresses once per encoding accepted, brotli first, with one weak ETag for all", async () => {
    const html = `<p>${"compressible ".repeat(200)}</p>`;
    const plain = await cache.keep("e", page(html), cache.writes(), []);
    const br = await cache.fresh("e", 0, ["gzip", "br"]);
    const gzip = await cache.fresh("e", 0, ["gzip", "identity"]);
    expect(br?.encoding).toBe("br");
    expect(brotliDecompressSync(br?.body ?? Buffer.alloc(0)).toString()).toBe(html);
    expect(gzip?.encoding).toBe("gzip");
    expect(gunzipSync(gzip?.body ?? Buffer.alloc(0)).toString()).toBe(html);
    expect(plain.etag).toMatch(/^W\/"/);
    expect(br?.etag).toBe(plain.etag);
    expect(await cache.fresh("e", 0, ["gzip", "br"])).toEqual(br);
  });
});

describe("published pages, kept", () => {
  let s: ContentScenario;
  beforeAll(async () => {
    s = await createContentScenario();
  });
  afterAll(() => s.t.close());
  const { sitePath, siteApi, visit, publishedSite } = siteVisits(() => s);

  it("answers an unchanged page with 304 to its ETag, and shows a merge at once", async () => {
    const { site, content } = await publishedSite();
    const first = await visit(`/s/${site.id}/guide`).expect(200);
    expect(first.headers["cache-control"]).toBe("public, no-cache");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await visit(`/s/${site.id}/guide`).expect(200);
    expect(again.headers.etag).toBe(etag);
    expect(again.text).toBe(first.text);
    // Sent from memory, before any route: with the request's id, as every answer.
    expect(again.headers["x-request-id"]).toBeDefined();
    const head = await supertest(s.t.app).head(`/s/${site.id}/guide`).expect(200);
    expect(head.headers.etag).toBe(etag);
    expect(head.text).toBeUndefined();
    const unchanged = await supertest(s.t.app).get(`/s/${site.id}/guide`).set("If-None-Match", etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe("");

    const cr = await content.createChangeRequest();
    await content.edit(cr.number, [insertPage("Guide two", "Other words.")]);
    await content.merge(cr.number);
    const after = await visit(`/s/${site.id}/guide`).expect(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.text).toContain("Guide two");
    await supertest(s.t.app).get(`/s/${site.id}/guide`).set("If-None-Match", etag).expect(200);
  });

  it("stops answering at once when the site is unpublished or renamed", async () => {
    const { site } = await publishedSite();
    await visit(`/s/${site.id}/guide`).expect(200);
    await siteApi("patch", sitePath(site.id), { title: "Manual" });
    expect((await visit(`/s/${site.id}/guide`).expect(200)).text).toContain("Manual");
    await siteApi("post", sitePath(site.id, "/unpublish"));
    await visit(`/s/${site.id}/guide`).expect(404);
  });

  it("keeps a share-link site's pages private to each browser, and refuses a revoked key at once", async () => {
    const { site } = await publishedSite(undefined, { visibility: "share-link" });
    const link = await siteApi("post", sitePath(site.id, "/share-links"), { name: "Partners" });
    const key = new URL(link.urls.published).searchParams.get("share");
    const shared = await visit(`/s/${site.id}/guide?share=${key}`).expect(200);
    expect(shared.headers["cache-control"]).toBe("private, no-cache");
    await siteApi("patch", sitePath(site.id, `/share-links/${link.id}`), { active: false });
    await visit(`/s/${site.id}/guide?share=${key}`).expect(404);
  });
});
