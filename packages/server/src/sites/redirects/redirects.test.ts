import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  insertPage,
  newSpaceContent,
} from "../../change-requests/testing.js";
import { guestOf } from "../../testing/fixtures.js";
import type { TestUser } from "../../testing/harness.js";

let s: ContentScenario;
let guest: TestUser;
let creator: TestUser;
let stranger: { organizationId: string; admin: TestUser };
beforeAll(async () => {
  s = await createContentScenario();
  guest = await guestOf(s.t, s.organizationId);
  creator = await s.t.user({ organizationId: s.organizationId, role: "create" });
  stranger = await s.t.organization();
});
afterAll(() => s.t.close());

type Redirect = Schema<"SiteRedirect">;

/** A site over a space with "Guide" and its child "Install", with API helpers on its redirects. */
async function siteWithPages() {
  const content = await newSpaceContent(s);
  const pages = await content.seed([insertPage("Guide", "Read me.")]);
  const more = await content.seed([insertPage("Install", "Run it.", pages.Guide)]);
  const site = (
    await s.t.request
      .post(`/v1/orgs/${s.organizationId}/sites`)
      .set(s.admin.auth)
      .send({ spaces: [content.spaceId] })
      .expect(201)
  ).body as Schema<"Site">;
  const path = (rest = "") => `/v1/orgs/${s.organizationId}/sites/${site.id}${rest}`;
  const [siteSpace] = (await s.t.request.get(path("/site-spaces")).set(s.admin.auth).expect(200)).body.items;
  const page = (pageId = more.Install as string) => ({
    kind: "site-page" as const,
    siteSpaceId: siteSpace.id as string,
    pageId,
  });
  const create = (body: object, user: TestUser = s.admin) =>
    s.t.request.post(path("/redirects")).set(user.auth).send(body);
  const list = async (query = ""): Promise<Redirect[]> =>
    (
      await s.t.request
        .get(path(`/redirects${query}`))
        .set(s.admin.auth)
        .expect(200)
    ).body.items;
  const lookup = (query: string, user: TestUser = s.admin) =>
    s.t.request.get(path(`/redirect?${query}`)).set(user.auth);
  return {
    site,
    path,
    spaceId: content.spaceId,
    siteSpaceId: siteSpace.id as string,
    guideId: more.Guide as string,
    installId: more.Install as string,
    page,
    create,
    list,
    lookup,
  };
}

describe("POST /v1/orgs/{organizationId}/sites/{siteId}/redirects", () => {
  it("creates a live or draft redirect to a page, also named by its path, in one form of source", async () => {
    const x = await siteWithPages();
    const created = await x.create({ source: "/old-page", destination: x.page() }).expect(201);
    expect(created.headers.location).toBe(`http://quire.test${x.path(`/redirects/${created.body.id}`)}`);
    expect(created.body).toEqual({
      object: "site-redirect",
      id: expect.any(String),
      source: "/old-page",
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: x.page(),
      createdAt: s.t.clock.now().toISOString(),
    });

    const byPath = await x
      .create({
        source: "/caf%c3%a9%2dold/*",
        captureWildcard: true,
        permanent: true,
        destination: { kind: "path", spaceId: x.spaceId, path: "/guide/install/" },
      })
      .expect(201);
    expect(byPath.body).toMatchObject({
      source: "/caf%C3%A9-old/*",
      captureWildcard: true,
      permanent: true,
      destination: x.page(),
    });
    const draft = await x
      .create({
        source: "/old-page",
        draft: true,
        destination: { kind: "external", url: "https://example.com/" },
      })
      .expect(201);
    expect(draft.body).toMatchObject({
      draft: true,
      destination: { kind: "external", url: "https://example.com/" },
    });

    expect((await x.list()).map((r) => r.id)).toEqual([byPath.body.id, created.body.id]);
    expect((await x.list("?draft=true")).map((r) => r.id)).toEqual([draft.body.id]);
  });

  it("answers 409 for a source the site's live (or draft) redirects already have", async () => {
    const x = await siteWithPages();
    await x.create({ source: "/a-b", destination: x.page() }).expect(201);
    const clash = await x.create({ source: "/a%2Db", destination: x.page() }).expect(409);
    expectError(clash.body, 409, "/a-b");
    await x.create({ source: "/a-b", draft: true, destination: x.page() }).expect(201);
    await x.create({ source: "/a-b", draft: true, destination: x.page() }).expect(409);
    expect(await x.list()).toHaveLength(1);
  });

  it("answers 400 for a destination outside the site or a malformed source, creating nothing", async () => {
    const x = await siteWithPages();
    const other = await siteWithPages();
    const refused: Array<[object, string?]> = [
      [{ kind: "site-section", siteSectionId: "missing" }, "Section"],
      [{ kind: "site-space", siteSpaceId: other.siteSpaceId }, "Site space"],
      [x.page("missing-page"), "missing-page"],
      [{ kind: "site-page", siteSpaceId: other.siteSpaceId, pageId: other.installId }, "Site space"],
      [{ kind: "path", spaceId: other.spaceId, path: "guide" }, "not in this site"],
      [{ kind: "path", spaceId: x.spaceId, path: "guide/nowhere" }, "guide/nowhere"],
      [{ kind: "external", url: "javascript:alert(1)" }],
      [{ kind: "elsewhere" }],
    ];
    for (const [destination, text] of refused) {
      const res = await x.create({ source: "/old", destination }).expect(400);
      expectError(res.body, 400, text);
    }
    for (const source of ["old", "/*", "/a/*/b", "/a b", "/a%zz", `/${"a".repeat(512)}`])
      await x.create({ source, destination: x.page() }).expect(400);
    await x.create({ source: "/old" }).expect(400);
    expect(await x.list()).toEqual([]);
  });

  it("answers 401, 404 to strangers, 403 but to administrators", async () => {
    const x = await siteWithPages();
    const body = { source: "/old", destination: x.page() };
    await s.t.request.post(x.path("/redirects")).send(body).expect(401);
    await x.create(body, s.outsider).expect(404);
    await x.create(body, stranger.admin).expect(404);
    await s.t.request
      .post(`/v1/orgs/${s.organizationId}/sites/missing/redirects`)
      .set(s.admin.auth)
      .send(body)
      .expect(404);
    for (const user of [guest, s.reader, s.editor, creator]) await x.create(body, user).expect(403);
    expect(await x.list()).toEqual([]);
  });
});

describe("GET /v1/orgs/{organizationId}/sites/{siteId}/redirects", () => {
  it("lists live or draft redirects by creation, change or source, searched, in pages", async () => {
    const x = await siteWithPages();
    const ids: Record<string, string> = {};
    for (const source of ["/b", "/c", "/a"]) {
      s.t.clock.advance(1000);
      ids[source] = (await x.create({ source, destination: x.page() }).expect(201)).body.id;
    }
    await x.create({ source: "/draft-one", draft: true, destination: x.page() }).expect(201);
    s.t.clock.advance(1000);
    await s.t.request
      .patch(x.path(`/redirects/${ids["/b"]}`))
      .set(s.admin.auth)
      .send({ permanent: true })
      .expect(200);

    const sources = (items: Redirect[]) => items.map((r) => r.source);
    expect(sources(await x.list())).toEqual(["/a", "/c", "/b"]);
    expect(sources(await x.list("?orderBy=createdAt"))).toEqual(["/a", "/c", "/b"]);
    expect(sources(await x.list("?orderBy=updatedAt"))).toEqual(["/b", "/a", "/c"]);
    expect(sources(await x.list("?orderBy=source"))).toEqual(["/a", "/b", "/c"]);
    expect(sources(await x.list("?draft=true"))).toEqual(["/draft-one"]);
    expect(sources(await x.list("?search=B"))).toEqual(["/b"]);
    expect(sources(await x.list("?search=%25"))).toEqual([]);

    const first = await s.t.request
      .get(x.path("/redirects?orderBy=source&limit=2"))
      .set(s.reader.auth)
      .expect(200);
    expect(first.body.count).toBe(3);
    expect(sources(first.body.items)).toEqual(["/a", "/b"]);
    const second = await s.t.request
      .get(x.path(`/redirects?orderBy=source&limit=2&page=${first.body.next.page}`))
      .set(s.reader.auth)
      .expect(200);
    expect(sources(second.body.items)).toEqual(["/c"]);
    expect(second.body.next).toBeUndefined();
  });

  it("answers 401, 404, 403 to a guest and 400", async () => {
    const x = await siteWithPages();
    await s.t.request.get(x.path("/redirects")).expect(401);
    await s.t.request.get(x.path("/redirects")).set(stranger.admin.auth).expect(404);
    await s.t.request.get(x.path("/redirects")).set(guest.auth).expect(403);
    await s.t.request.get(x.path("/redirects?orderBy=title")).set(s.admin.auth).expect(400);
    await s.t.request.get(x.path("/redirects?page=forged")).set(s.admin.auth).expect(400);
  });
});

describe("PATCH /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", () => {
  it("changes what is given, keeping the rest, and says when", async () => {
    const x = await siteWithPages();
    const created: Redirect = (await x.create({ source: "/old", destination: x.page() }).expect(201)).body;
    const patch = (body: object, user: TestUser = s.admin) =>
      s.t.request
        .patch(x.path(`/redirects/${created.id}`))
        .set(user.auth)
        .send(body);

    expect((await patch({}).expect(200)).body).toEqual(created);
    s.t.clock.advance(1000);
    const changed = await patch({
      source: "/older/*",
      captureWildcard: true,
      permanent: true,
      destination: { kind: "site-space", siteSpaceId: x.siteSpaceId },
    }).expect(200);
    expect(changed.body).toEqual({
      ...created,
      source: "/older/*",
      captureWildcard: true,
      permanent: true,
      destination: { kind: "site-space", siteSpaceId: x.siteSpaceId },
      updatedAt: s.t.clock.now().toISOString(),
    });
    expect(await x.list()).toEqual([changed.body]);

    const draft = await patch({
      draft: true,
      destination: { kind: "path", spaceId: x.spaceId, path: "guide" },
    });
    expect(draft.body).toMatchObject({ draft: true, destination: x.page(x.guideId) });
    expect(await x.list("?draft=true")).toEqual([draft.body]);
  });

  it("answers 409 on a clash, 400, 404 and 403, changing nothing", async () => {
    const x = await siteWithPages();
    const created: Redirect = (await x.create({ source: "/old", destination: x.page() }).expect(201)).body;
    await x.create({ source: "/taken", destination: x.page() }).expect(201);
    await x.create({ source: "/old", draft: true, destination: x.page() }).expect(201);
    const patch = (body: object, user: TestUser = s.admin, id = created.id) =>
      s.t.request
        .patch(x.path(`/redirects/${id}`))
        .set(user.auth)
        .send(body);

    expectError((await patch({ source: "/taken" }).expect(409)).body, 409, "/taken");
    await patch({ draft: true }).expect(409);
    await patch({ destination: { kind: "site-space", siteSpaceId: "missing" } }).expect(400);
    await patch({ source: "relative" }).expect(400);
    await patch({ permanent: "yes" }).expect(400);
    await patch({}, s.admin, "missing").expect(404);
    await s.t.request
      .patch(x.path(`/redirects/${created.id}`))
      .send({})
      .expect(401);
    await patch({}, stranger.admin).expect(404);
    await patch({ permanent: true }, creator).expect(403);
    const other = await siteWithPages();
    await s.t.request
      .patch(other.path(`/redirects/${created.id}`))
      .set(s.admin.auth)
      .send({ permanent: true })
      .expect(404);
    expect((await x.list("?orderBy=source")).find((r) => r.id === created.id)).toEqual(created);
  });
});

describe("DELETE /v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", () => {
  it("answers 205 once deleted and 204 when there was none; deleting the site deletes its redirects", async () => {
    const x = await siteWithPages();
    const { id } = (await x.create({ source: "/old", destination: x.page() }).expect(201)).body;
    await s.t.request
      .delete(x.path(`/redirects/${id}`))
      .set(creator.auth)
      .expect(403);
    await s.t.request
      .delete(x.path(`/redirects/${id}`))
      .set(stranger.admin.auth)
      .expect(404);
    await s.t.request.delete(x.path(`/redirects/${id}`)).expect(401);
    expect(await x.list()).toHaveLength(1);
    await s.t.request
      .delete(x.path(`/redirects/${id}`))
      .set(s.admin.auth)
      .expect(205);
    expect(await x.list()).toEqual([]);
    await s.t.request
      .delete(x.path(`/redirects/${id}`))
      .set(s.admin.auth)
      .expect(204);

    await x.create({ source: "/kept", destination: x.page() }).expect(201);
    await s.t.request.delete(x.path()).set(s.admin.auth).expect(204);
    const left = await s.t.db
      .selectFrom("site_redirects")
      .select("id")
      .where("site_id", "=", x.site.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe("PUT /v1/orgs/{organizationId}/sites/{siteId}/redirects", () => {
  it("creates, updates, deletes and publishes each item on its own", async () => {
    const x = await siteWithPages();
    const live: Redirect = (
      await x.create({ source: "/live", permanent: true, destination: x.page() }).expect(201)
    ).body;
    const gone: Redirect = (await x.create({ source: "/gone", destination: x.page() }).expect(201)).body;
    const space = { kind: "site-space", siteSpaceId: x.siteSpaceId };
    const res = await s.t.request
      .put(x.path("/redirects"))
      .set(s.admin.auth)
      .send({
        redirects: [
          { source: "/new", destination: x.page() },
          { source: "/live", intent: "draft", permanent: true, destination: space },
          {
            source: "/live",
            captureWildcard: true,
            destination: { kind: "path", spaceId: x.spaceId, path: "guide" },
          },
          { source: "/gone", destination: null },
          { source: "/gone", destination: null },
          { source: "/bad", destination: { kind: "site-section", siteSectionId: "missing" } },
          { source: "/live", intent: "publish" },
          { source: "/never", intent: "publish" },
          { source: "/fresh", intent: "draft", destination: space },
          { source: "/fresh", intent: "publish" },
        ],
      })
      .expect(200);
    const [created, drafted, updated, deleted, missing, bad, published, unpublished, fresh, freshPublished] =
      res.body.results;
    expect(created).toEqual({ status: "created", source: "/new", draft: false, id: expect.any(String) });
    expect(drafted).toEqual({ status: "created", source: "/live", draft: true, id: expect.any(String) });
    expect(updated).toEqual({ status: "updated", source: "/live", draft: false, id: live.id });
    expect(deleted).toEqual({ status: "deleted", source: "/gone", draft: false });
    expect(missing).toMatchObject({
      status: "error",
      source: "/gone",
      draft: false,
      error: expect.any(String),
    });
    expect(bad).toMatchObject({ status: "error", source: "/bad", error: expect.stringContaining("missing") });
    expect(published).toEqual({ status: "published", source: "/live", draft: false, id: live.id });
    expect(unpublished).toMatchObject({ status: "error", source: "/never", draft: false });
    expect(freshPublished).toEqual({ status: "published", source: "/fresh", draft: false, id: fresh.id });

    const byId = new Map((await x.list()).map((r) => [r.id, r]));
    expect([...byId.keys()].sort()).toEqual([created.id, live.id, fresh.id].sort());
    // Publishing put the draft's settings on the live redirect, and the draft is gone.
    expect(byId.get(live.id)).toMatchObject({ permanent: true, captureWildcard: false, destination: space });
    expect(byId.get(created.id)).toMatchObject({ permanent: false, destination: x.page() });
    expect(await x.list("?draft=true")).toEqual([]);
    expect(byId.has(gone.id)).toBe(false);
  });

  it("answers 400 for no item or over 500, 401, 404 and 403", async () => {
    const x = await siteWithPages();
    const put = (body: object, user: TestUser = s.admin) =>
      s.t.request.put(x.path("/redirects")).set(user.auth).send(body);
    const item = { source: "/a", destination: x.page() };
    await put({ redirects: [] }).expect(400);
    await put({ redirects: Array.from({ length: 501 }, () => item) }).expect(400);
    await put({ redirects: [{ source: "/a" }] }).expect(400);
    await s.t.request
      .put(x.path("/redirects"))
      .send({ redirects: [item] })
      .expect(401);
    await put({ redirects: [item] }, stranger.admin).expect(404);
    await put({ redirects: [item] }, creator).expect(403);
    expect(await x.list()).toEqual([]);
  });
});

describe("GET /v1/orgs/{organizationId}/sites/{siteId}/redirect", () => {
  it("resolves a path to its most specific live redirect and the published URL of its destination", async () => {
    const x = await siteWithPages();
    const root = `http://quire.test/s/${x.site.id}/`;
    const exact: Redirect = (await x.create({ source: "/docs/setup", destination: x.page() }).expect(201))
      .body;
    const wide: Redirect = (
      await x.create({
        source: "/docs/*",
        captureWildcard: true,
        destination: { kind: "site-space", siteSpaceId: x.siteSpaceId },
      })
    ).body;
    const narrow: Redirect = (
      await x.create({
        source: "/docs/old*",
        captureWildcard: true,
        destination: { kind: "external", url: "https://example.com/v1" },
      })
    ).body;
    await x.create({ source: "/drafted", draft: true, destination: x.page() }).expect(201);

    expect((await x.lookup("source=/docs/setup").expect(200)).body).toEqual({
      redirect: exact,
      target: `${root}guide/install/`,
    });
    expect((await x.lookup("source=/docs/guide/install").expect(200)).body).toEqual({
      redirect: wide,
      target: `${root}guide/install`,
    });
    expect((await x.lookup("source=/docs").expect(200)).body.target).toBe(root);
    expect((await x.lookup("source=/docs/older/x").expect(200)).body).toEqual({
      redirect: narrow,
      target: "https://example.com/v1er/x",
    });
    // A wildcard source is looked up as it is.
    expect((await x.lookup("source=/docs/*").expect(200)).body.redirect).toEqual(wide);
    await x.lookup("source=/drafted").expect(404);
    await x.lookup("source=/nowhere").expect(404);

    await s.t.request.post(x.path("/publish")).set(s.admin.auth).expect(200);
    const link = (
      await s.t.request.post(x.path("/share-links")).set(s.admin.auth).send({ name: "Team" }).expect(201)
    ).body;
    const key = new URL(link.urls.published).searchParams.get("share");
    expect((await x.lookup(`source=/docs/setup&shareKey=${key}`).expect(200)).body.target).toBe(
      `${root}guide/install/?share=${key}`,
    );
    expect((await x.lookup("source=/docs/setup&shareKey=not-a-key").expect(200)).body.target).toBe(
      `${root}guide/install/`,
    );

    // A destination gone from the site leaves the redirect unapplied: the next match applies.
    await s.t.request
      .delete(x.path(`/redirects/${wide.id}`))
      .set(s.admin.auth)
      .expect(205);
    await s.t.request
      .delete(x.path(`/site-spaces/${x.siteSpaceId}`))
      .set(s.admin.auth)
      .expect(204);
    await x.lookup("source=/docs/setup").expect(404);
    expect((await x.lookup("source=/docs/old").expect(200)).body.redirect).toEqual(narrow);
  });

  it("answers 400 without a valid source, 401, 404 and 403 to a guest", async () => {
    const x = await siteWithPages();
    await x.lookup("").expect(400);
    await x.lookup("source=relative").expect(400);
    await s.t.request.get(x.path("/redirect?source=/a")).expect(401);
    await x.lookup("source=/a", stranger.admin).expect(404);
    await x.lookup("source=/a", guest).expect(403);
    await x.lookup("source=/a", s.reader).expect(404);
  });
});
