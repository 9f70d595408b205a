import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSpace } from "../testing/factories.js";
import {
  buildSpaces,
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

const sitesPath = () => `/v1/orgs/${s.organizationId}/sites`;
const ids = (body: { items: Array<{ id: string }> }) => body.items.map((item) => item.id);

describe("GET /v1/orgs/{organizationId}/sites", () => {
  it("lists the organization's sites in creation order, filtered and paged", async () => {
    const { organizationId, admin } = await s.t.organization();
    const create = async (body: object) =>
      (await s.t.request.post(`/v1/orgs/${organizationId}/sites`).set(admin.auth).send(body).expect(201))
        .body;
    const space = await buildSpace(s.t, { organization_id: organizationId, title: "Guide" });
    const docs = await create({ title: "Product Docs", spaces: [space.id] });
    const blog = await create({ title: "100%_Blog", type: "premium" });
    const api = await create({ title: "API docs", type: "ultimate" });
    await s.t.request.post(`/v1/orgs/${organizationId}/sites/${api.id}/publish`).set(admin.auth).expect(200);

    const list = (query: string) =>
      s.t.request.get(`/v1/orgs/${organizationId}/sites${query}`).set(admin.auth).expect(200);
    expect(ids((await list("")).body)).toEqual([docs.id, blog.id, api.id]);
    expect(ids((await list("?title=DOCS")).body)).toEqual([docs.id, api.id]);
    expect(ids((await list("?title=0%25_")).body)).toEqual([blog.id]);
    expect(ids((await list("?title=0%25x")).body)).toEqual([]);
    expect(ids((await list(`?space=${space.id}`)).body)).toEqual([docs.id]);
    expect(ids((await list("?published=true")).body)).toEqual([api.id]);
    expect(ids((await list("?published=false")).body)).toEqual([docs.id, blog.id]);
    expect(ids((await list("?type=premium&type=ultimate")).body)).toEqual([blog.id, api.id]);
    expect(ids((await list("?type=basic&title=api")).body)).toEqual([]);

    const first = await list("?limit=2");
    expect(first.body.count).toBe(3);
    expect(ids(first.body)).toEqual([docs.id, blog.id]);
    const second = await list(`?limit=2&page=${first.body.next.page}`);
    expect(ids(second.body)).toEqual([api.id]);
    expect(second.body.next).toBeUndefined();
  });

  it("answers 404, 403 to a guest and 400", async () => {
    await s.t.request.get(sitesPath()).set(s.outsider.auth).expect(404);
    await s.t.request.get(sitesPath()).set(s.guest.auth).expect(403);
    await s.t.request.get(`${sitesPath()}?type=gold`).set(s.admin.auth).expect(400);
    await s.t.request.get(`${sitesPath()}?page=forged`).set(s.admin.auth).expect(400);
  });
});

describe("POST /v1/orgs/{organizationId}/sites", () => {
  it("creates an unpublished basic public site with defaults", async () => {
    const res = await s.t.request.post(sitesPath()).set(s.creator.auth).expect(201);
    expect(res.body).toMatchObject({
      object: "site",
      type: "basic",
      title: "Untitled site",
      visibility: "public",
      published: false,
      siteSpaces: 0,
      adaptiveContent: { enabled: false },
    });
    expect(res.body.urls.published).toBeUndefined();
    expect(res.body.features.map((f: { id: string }) => f.id)).toContain("sites-basic-customization");
    expect(res.headers.location).toBe(res.body.urls.location);
    const read = await s.t.request
      .get(sitePath(s.organizationId, res.body.id))
      .set(s.reader.auth)
      .expect(200);
    // The same site; the permissions are the caller's.
    expect({ ...read.body, permissions: undefined }).toEqual({ ...res.body, permissions: undefined });
  });

  it("answers GitBook's appliedType, defaultLevel and the caller's permissions, and the app's page as preview", async () => {
    const site = await createSite(s, { type: "premium" });
    const as = async (user: { auth: { Authorization: string } }) =>
      (await s.t.request.get(sitePath(s.organizationId, site.id)).set(user.auth).expect(200)).body;
    const forAdmin = await as(s.admin);
    expect(forAdmin).toMatchObject({ type: "premium", appliedType: "premium", defaultLevel: "inherit" });
    // Quire previews a site to its members, published or not, at its page in the application.
    expect(forAdmin.urls).toEqual({
      location: `http://quire.test/v1/orgs/${s.organizationId}/sites/${site.id}`,
      app: `http://quire.test/app/orgs/${s.organizationId}/sites/${site.id}`,
      preview: `http://quire.test/app/orgs/${s.organizationId}/sites/${site.id}`,
    });
    const all = { view: true, access: true, viewAdaptiveSchema: true };
    expect(forAdmin.permissions).toEqual({
      ...all,
      edit: true,
      create: true,
      admin: true,
      installIntegration: true,
      editAdaptiveSchema: true,
    });
    expect((await as(s.creator)).permissions).toEqual({
      ...all,
      edit: true,
      create: true,
      admin: false,
      installIntegration: false,
      editAdaptiveSchema: false,
    });
    expect((await as(s.reader)).permissions).toEqual({
      ...all,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      editAdaptiveSchema: false,
    });
    const listed = await s.t.request.get(sitesPath()).set(s.reader.auth).expect(200);
    const mine = listed.body.items.find((x: { id: string }) => x.id === site.id);
    expect(mine.permissions.create).toBe(false);
    expect(mine.urls).toEqual(forAdmin.urls);
  });

  it("links the given spaces at the root, in order, without duplicates, the first as default", async () => {
    const [intro, guide] = await buildSpaces(s, "Intro", "Intro");
    const site = await createSite(s, {
      title: "Handbook",
      visibility: "unlisted",
      type: "premium",
      spaces: [intro?.id ?? "", guide?.id ?? "", intro?.id ?? ""],
    });
    expect(site).toMatchObject({ title: "Handbook", visibility: "unlisted", type: "premium", siteSpaces: 2 });
    const links = await s.t.request
      .get(sitePath(s.organizationId, site.id, "/site-spaces"))
      .set(s.admin.auth)
      .expect(200);
    expect(
      links.body.items.map((l: { space: { id: string }; path: string; default: boolean }) => [
        l.space.id,
        l.path,
        l.default,
      ]),
    ).toEqual([
      [intro?.id, "intro", true],
      [guide?.id, "intro-2", false],
    ]);
  });

  it("creates a new space for the site when asked", async () => {
    const site = await createSite(s, { title: "Fresh docs", spaces: "empty" });
    expect(site.siteSpaces).toBe(1);
    const [link] = (
      await s.t.request
        .get(sitePath(s.organizationId, site.id, "/site-spaces"))
        .set(s.admin.auth)
        .expect(200)
    ).body.items;
    expect(link).toMatchObject({ title: "Fresh docs", default: true, path: "fresh-docs" });
    const space = await s.t.request.get(`/v1/spaces/${link.space.id}`).set(s.admin.auth).expect(200);
    expect(space.body).toMatchObject({ title: "Fresh docs", organization: s.organizationId });
  });

  it("answers 404, 403 and 400, creating nothing", async () => {
    const before = (await s.t.request.get(sitesPath()).set(s.admin.auth)).body.count;
    const [other] = await Promise.all([buildSpace(s.t, { organization_id: s.strangerOrganizationId })]);
    const deleted = await buildSpace(s.t, {
      organization_id: s.organizationId,
      deleted_at: s.t.clock.now().toISOString(),
    });
    await s.t.request.post(sitesPath()).set(s.outsider.auth).send({}).expect(404);
    await s.t.request.post(sitesPath()).set(s.reader.auth).send({}).expect(403);
    await s.t.request.post(sitesPath()).set(s.guest.auth).send({}).expect(403);
    await s.t.request.post(sitesPath()).set(s.admin.auth).send({ title: "x" }).expect(400);
    await s.t.request.post(sitesPath()).set(s.admin.auth).send({ type: "gold" }).expect(400);
    await s.t.request.post(sitesPath()).set(s.admin.auth).send({ spaces: "full" }).expect(400);
    await s.t.request
      .post(sitesPath())
      .set(s.admin.auth)
      .send({ spaces: ["missing"] })
      .expect(400);
    await s.t.request
      .post(sitesPath())
      .set(s.admin.auth)
      .send({ spaces: [other?.id] })
      .expect(400);
    await s.t.request
      .post(sitesPath())
      .set(s.admin.auth)
      .send({ spaces: [deleted.id] })
      .expect(400);
    expect((await s.t.request.get(sitesPath()).set(s.admin.auth)).body.count).toBe(before);
  });
});

describe("GET /v1/orgs/{organizationId}/sites/{siteId}", () => {
  it("answers 404 (another organization's site too), 403 to a guest and 400", async () => {
    const site = await createSite(s);
    const theirs = await createStrangerSite(s);
    await s.t.request.get(sitePath(s.organizationId, site.id)).set(s.outsider.auth).expect(404);
    await s.t.request.get(sitePath(s.organizationId, site.id)).set(s.stranger.auth).expect(404);
    await s.t.request.get(sitePath(s.organizationId, theirs.id)).set(s.admin.auth).expect(404);
    await s.t.request.get(sitePath(s.organizationId, site.id)).set(s.guest.auth).expect(403);
    await s.t.request
      .get(sitePath(s.organizationId, `${site.id}?x=1`))
      .set(s.admin.auth)
      .expect(400);
  });
});

describe("PATCH /v1/orgs/{organizationId}/sites/{siteId}", () => {
  it("accepts defaultLevel inherit, refuses a per-site role with 400, and ignores styleguide", async () => {
    const site = await createSite(s, { title: "Roles" });
    const patch = (body: object) =>
      s.t.request.patch(sitePath(s.organizationId, site.id)).set(s.admin.auth).send(body);
    const res = await patch({ defaultLevel: "inherit", styleguide: "space-id", title: "Roles 2" }).expect(
      200,
    );
    expect(res.body).toMatchObject({ title: "Roles 2", defaultLevel: "inherit" });
    expect((await patch({ styleguide: null }).expect(200)).body.title).toBe("Roles 2");
    for (const defaultLevel of ["read", "admin", null]) {
      const refused = await patch({ defaultLevel, title: "Changed" }).expect(400);
      expect(refused.body.error.message).toContain("defaultLevel");
    }
    await patch({ defaultLevel: "owner" }).expect(400);
    await s.t.request
      .patch(sitePath(s.organizationId, site.id))
      .set(s.creator.auth)
      .send({ defaultLevel: "inherit" })
      .expect(403);
    const read = await s.t.request.get(sitePath(s.organizationId, site.id)).set(s.admin.auth).expect(200);
    expect(read.body).toMatchObject({ title: "Roles 2", defaultLevel: "inherit" });
  });

  it("changes the settings an administrator sets", async () => {
    const site = await createSite(s, { title: "Before" });
    const res = await s.t.request
      .patch(sitePath(s.organizationId, site.id))
      .set(s.admin.auth)
      .send({
        title: "After",
        visibility: "visitor-auth",
        basename: "after-docs",
        adaptiveContent: { enabled: true },
        proxy: "example.com/docs",
      })
      .expect(200);
    expect(res.body).toMatchObject({
      title: "After",
      visibility: "visitor-auth",
      basename: "after-docs",
      adaptiveContent: { enabled: true },
      proxy: { origin: "example.com/docs", target: `http://quire.test/s/${site.id}/` },
    });
    const read = await s.t.request.get(sitePath(s.organizationId, site.id)).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(res.body);
    const removed = await s.t.request
      .patch(sitePath(s.organizationId, site.id))
      .set(s.admin.auth)
      .send({ proxy: null })
      .expect(200);
    expect(removed.body.proxy).toBeUndefined();
    expect(removed.body.title).toBe("After");
  });

  it("sets the default section and its default site space", async () => {
    const [a, b, c] = await buildSpaces(s, "Alpha", "Beta", "Gamma");
    const site = await createSite(s, { spaces: [a?.id ?? ""] });
    const path = (rest: string) => sitePath(s.organizationId, site.id, rest);
    const rootLinks = (await s.t.request.get(path("/site-spaces")).set(s.admin.auth)).body.items;
    const second = await s.t.request
      .post(path("/site-spaces"))
      .set(s.admin.auth)
      .send({ spaceId: b?.id })
      .expect(201);
    await s.t.request
      .patch(path(""))
      .set(s.admin.auth)
      .send({ defaultSiteSpace: second.body.id })
      .expect(200);
    const defaults = await s.t.request.get(path("/site-spaces?default=true")).set(s.admin.auth).expect(200);
    expect(ids(defaults.body)).toEqual([second.body.id]);

    const section = await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: c?.id })
      .expect(201);
    await s.t.request
      .patch(path(""))
      .set(s.admin.auth)
      .send({ defaultSiteSection: section.body.id })
      .expect(200);
    const sections = await s.t.request.get(path("/sections")).set(s.admin.auth).expect(200);
    expect(sections.body.items.map((x: { id: string; default: boolean }) => [x.id, x.default])).toEqual([
      [sections.body.items[0].id, false],
      [section.body.id, true],
    ]);
    // The site space must now be one of the default section's.
    await s.t.request
      .patch(path(""))
      .set(s.admin.auth)
      .send({ defaultSiteSpace: rootLinks[0].id })
      .expect(400);
    await s.t.request
      .patch(path(""))
      .set(s.admin.auth)
      .send({ defaultSiteSpace: section.body.siteSpaces[0].id })
      .expect(200);
  });

  it("answers 409 on a basename or proxy another site has", async () => {
    const first = await createSite(s);
    const second = await createSite(s);
    await s.t.request
      .patch(sitePath(s.organizationId, first.id))
      .set(s.admin.auth)
      .send({ basename: "taken", proxy: "docs.example.org/x" })
      .expect(200);
    await s.t.request
      .patch(sitePath(s.organizationId, second.id))
      .set(s.admin.auth)
      .send({ basename: "taken" })
      .expect(409);
    await s.t.request
      .patch(sitePath(s.organizationId, second.id))
      .set(s.admin.auth)
      .send({ proxy: "docs.example.org/x" })
      .expect(409);
    const read = await s.t.request.get(sitePath(s.organizationId, second.id)).set(s.admin.auth).expect(200);
    expect(read.body.basename).toBeUndefined();
    expect(read.body.proxy).toBeUndefined();
    // Setting a site's own values again is no clash.
    await s.t.request
      .patch(sitePath(s.organizationId, first.id))
      .set(s.admin.auth)
      .send({ basename: "taken", proxy: "docs.example.org/x" })
      .expect(200);
  });

  it("answers 404, 403 to a creator and 400, changing nothing", async () => {
    const site = await createSite(s, { title: "Kept" });
    const path = sitePath(s.organizationId, site.id);
    await s.t.request.patch(path).set(s.outsider.auth).send({ title: "No" }).expect(404);
    await s.t.request.patch(path).set(s.creator.auth).send({ title: "No" }).expect(403);
    await s.t.request.patch(path).set(s.admin.auth).send({ title: "N" }).expect(400);
    await s.t.request.patch(path).set(s.admin.auth).send({ basename: "a/b" }).expect(400);
    await s.t.request.patch(path).set(s.admin.auth).send({ proxy: "not a url" }).expect(400);
    await s.t.request.patch(path).set(s.admin.auth).send({ defaultSiteSection: "missing" }).expect(400);
    await s.t.request
      .patch(path)
      .set(s.admin.auth)
      .send({ title: "No", defaultSiteSpace: "missing" })
      .expect(400);
    expect((await s.t.request.get(path).set(s.admin.auth)).body.title).toBe("Kept");
  });
});

describe("DELETE /v1/orgs/{organizationId}/sites/{siteId}", () => {
  it("deletes the site and its structure, keeping its spaces", async () => {
    const [space] = await buildSpaces(s, "Kept space");
    const site = await createSite(s, { spaces: [space?.id ?? ""] });
    await s.t.request
      .post(sitePath(s.organizationId, site.id, "/sections"))
      .set(s.admin.auth)
      .send({ spaceId: space?.id })
      .expect(201);
    await s.t.db
      .updateTable("organizations")
      .set({ default_content_site: site.id })
      .where("id", "=", s.organizationId)
      .execute();
    await s.t.request.delete(sitePath(s.organizationId, site.id)).set(s.creator.auth).expect(204);
    await s.t.request.get(sitePath(s.organizationId, site.id)).set(s.admin.auth).expect(404);
    await s.t.request.get(`/v1/spaces/${space?.id}`).set(s.admin.auth).expect(200);
    const leftovers = await s.t.db
      .selectFrom("site_spaces")
      .select("id")
      .where("site_id", "=", site.id)
      .execute();
    expect(leftovers).toEqual([]);
    const organization = await s.t.db
      .selectFrom("organizations")
      .select("default_content_site")
      .where("id", "=", s.organizationId)
      .executeTakeFirstOrThrow();
    expect(organization.default_content_site).toBeNull();
  });

  it("answers 404, 403 and 400, deleting nothing", async () => {
    const site = await createSite(s);
    const path = sitePath(s.organizationId, site.id);
    await s.t.request.delete(path).set(s.outsider.auth).expect(404);
    await s.t.request.delete(sitePath(s.strangerOrganizationId, site.id)).set(s.stranger.auth).expect(404);
    await s.t.request.delete(path).set(s.reader.auth).expect(403);
    await s.t.request.delete(`${path}?x=1`).set(s.admin.auth).expect(400);
    await s.t.request.get(path).set(s.admin.auth).expect(200);
  });
});

describe("adaptive schema", () => {
  const schemaPath = (siteId: string) => sitePath(s.organizationId, siteId, "/adaptive-schema");

  it("starts empty, and takes GitBook's subset of JSON Schema", async () => {
    const site = await createSite(s);
    const initial = await s.t.request.get(schemaPath(site.id)).set(s.reader.auth).expect(200);
    expect(initial.body).toEqual({
      object: "site-adaptive-schema",
      jsonSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: {},
        additionalProperties: false,
      },
      updatedAt: site.createdAt,
    });
    s.t.clock.advance(60_000);
    const jsonSchema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        isBetaUser: { type: "boolean", description: "In the beta program" },
        plan: { type: "string", description: "Plan", enum: ["free", "pro"] },
        name: { type: "string", description: "Display name" },
        seats: { type: "number", description: "Seats" },
        roles: {
          type: "array",
          description: "Roles",
          items: { type: "string", description: "A role", enum: ["admin", "member"] },
        },
        company: {
          type: "object",
          description: "Company",
          properties: { size: { type: "number", description: "Employees" } },
          additionalProperties: false,
        },
        unsigned: {
          type: "object",
          description: "Unsigned claims of the site visitor.",
          properties: { language: { type: "string", description: "Preferred language" } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    };
    const put = await s.t.request.put(schemaPath(site.id)).set(s.admin.auth).send({ jsonSchema }).expect(200);
    expect(put.body).toEqual({
      object: "site-adaptive-schema",
      jsonSchema,
      updatedAt: s.t.clock.now().toISOString(),
    });
    const read = await s.t.request.get(schemaPath(site.id)).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(put.body);
  });

  it("refuses schemas outside the subset with 400, keeping the one stored", async () => {
    const site = await createSite(s);
    const put = (properties: object, extra: object = {}) =>
      s.t.request
        .put(schemaPath(site.id))
        .set(s.admin.auth)
        .send({ jsonSchema: { type: "object", properties, additionalProperties: false, ...extra } });
    await put({ ok: { type: "boolean", description: "fine" } }).expect(200);
    const refused: object[] = [
      { count: { type: "integer", description: "not in the subset" } },
      { flag: { type: "boolean" } },
      { "not-an-identifier": { type: "boolean", description: "x" } },
      { constructor: { type: "boolean", description: "x" } },
      { unsigned: { type: "boolean", description: "must be an object" } },
      {
        list: {
          type: "array",
          description: "x",
          items: { type: "array", description: "nested", items: { type: "string", description: "y" } },
        },
      },
      { nested: { type: "object", description: "x", properties: {}, additionalProperties: true } },
      {
        nested: {
          type: "object",
          description: "x",
          properties: { "a b": { type: "boolean", description: "y" } },
          additionalProperties: false,
        },
      },
      { plan: { type: "string", description: "x", enum: [1, 2] } },
    ];
    for (const properties of refused) await put(properties).expect(400);
    await put({}, { type: "array" }).expect(400);
    const read = await s.t.request.get(schemaPath(site.id)).set(s.admin.auth).expect(200);
    expect(Object.keys(read.body.jsonSchema.properties)).toEqual(["ok"]);
  });

  it("answers 404, 403 to a creator (and to a guest on reading)", async () => {
    const site = await createSite(s);
    const body = { jsonSchema: { type: "object", properties: {}, additionalProperties: false } };
    await s.t.request.get(schemaPath(site.id)).set(s.outsider.auth).expect(404);
    await s.t.request.get(schemaPath(site.id)).set(s.guest.auth).expect(403);
    await s.t.request.put(schemaPath(site.id)).set(s.stranger.auth).send(body).expect(404);
    await s.t.request.put(schemaPath(site.id)).set(s.creator.auth).send(body).expect(403);
  });
});

describe("publishing", () => {
  it("publishes and unpublishes; published URLs appear only while published", async () => {
    const [a, b] = await buildSpaces(s, "Start", "Reference");
    const site = await createSite(s, { spaces: [a?.id ?? ""] });
    const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
    await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: b?.id, title: "Reference" })
      .expect(201);
    const published = await s.t.request.post(path("/publish")).set(s.admin.auth).expect(200);
    const root = `http://quire.test/s/${site.id}/`;
    const preview = `http://quire.test/app/orgs/${s.organizationId}/sites/${site.id}`;
    expect(published.body).toMatchObject({ published: true, urls: { published: root, preview } });
    const sections = (await s.t.request.get(path("/sections")).set(s.reader.auth).expect(200)).body.items;
    expect(sections.map((x: { urls: { published?: string } }) => x.urls.published)).toEqual([
      root,
      `${root}reference/`,
    ]);
    expect(sections[0].siteSpaces[0].urls.published).toBe(root);
    expect((await s.t.request.get(path()).set(s.reader.auth)).body.published).toBe(true);

    const unpublished = await s.t.request.post(path("/unpublish")).set(s.admin.auth).expect(200);
    expect(unpublished.body.published).toBe(false);
    expect(unpublished.body.urls.published).toBeUndefined();
    expect(unpublished.body.urls.preview).toBe(preview);
    const after = (await s.t.request.get(path("/site-spaces")).set(s.admin.auth)).body.items;
    expect(after.every((x: { urls: object }) => Object.keys(x.urls).length === 0)).toBe(true);
  });

  it("answers 404 and 403 to a creator", async () => {
    const site = await createSite(s);
    for (const action of ["/publish", "/unpublish"]) {
      await s.t.request
        .post(sitePath(s.organizationId, site.id, action))
        .set(s.outsider.auth)
        .expect(404);
      await s.t.request
        .post(sitePath(s.organizationId, site.id, action))
        .set(s.creator.auth)
        .expect(403);
    }
    expect(
      (await s.t.request.get(sitePath(s.organizationId, site.id)).set(s.admin.auth)).body.published,
    ).toBe(false);
  });
});

describe("GET /v1/orgs/{organizationId}/sites/{siteId}/published", () => {
  it("gives root site spaces, or sections in structure order without empty ones, conditions as data", async () => {
    const [a, b, c] = await buildSpaces(s, "One", "Two", "Three");
    const site = await createSite(s, { spaces: [a?.id ?? "", b?.id ?? ""] });
    const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
    const flat = await s.t.request.get(path("/published")).set(s.reader.auth).expect(200);
    expect(flat.body.object).toBe("published-content-site");
    expect(flat.body.structure.type).toBe("siteSpaces");
    expect(flat.body.structure.structure.map((x: { title: string }) => x.title)).toEqual(["One", "Two"]);
    expect(flat.body.customizations.site.styling.theme).toBe("clean");
    expect(flat.body.site.id).toBe(site.id);

    const third = await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: c?.id })
      .expect(201);
    await s.t.request
      .patch(path(`/sections/${third.body.id}`))
      .set(s.admin.auth)
      .send({ condition: "visitor.claims.beta == true" })
      .expect(200);
    const empty = await s.t.request
      .post(path("/sections"))
      .set(s.admin.auth)
      .send({ spaceId: a?.id, title: "Empty" })
      .expect(201);
    await s.t.request
      .delete(path(`/site-spaces/${empty.body.siteSpaces[0].id}`))
      .set(s.admin.auth)
      .expect(204);
    const group = await s.t.request
      .post(path("/section-groups"))
      .set(s.admin.auth)
      .send({ title: "Group", sections: [third.body.id] })
      .expect(201);
    await s.t.request
      .post(path(`/section-groups/${group.body.id}/move`))
      .set(s.admin.auth)
      .send({
        position: {
          before: {
            type: "site-section",
            id: (await s.t.request.get(path("/sections")).set(s.admin.auth)).body.items[0].id,
          },
        },
      })
      .expect(200);

    const sectioned = await s.t.request.get(path("/published")).set(s.reader.auth).expect(200);
    expect(sectioned.body.structure.type).toBe("sections");
    // GitBook's top level: the group holds its sections, in `sections` and `children` alike.
    type Item = { object: string; title: string; condition?: string; children?: Item[]; sections?: Item[] };
    const shape = (x: Item): unknown[] => [x.object, x.title, x.condition, x.children?.map(shape)];
    const top: Item[] = sectioned.body.structure.structure;
    expect(top.map(shape)).toEqual([
      [
        "site-section-group",
        "Group",
        undefined,
        [["site-section", "Three", "visitor.claims.beta == true", undefined]],
      ],
      ["site-section", site.title, undefined, undefined],
    ]);
    expect(top[0]).toMatchObject({ id: group.body.id, draft: false });
    expect(top[0]?.sections).toEqual(top[0]?.children);
    expect(sectioned.body.site.urls.preview).toBe(
      `http://quire.test/app/orgs/${s.organizationId}/sites/${site.id}`,
    );
    // A group whose sections all stay out (here one without site spaces) stays out too.
    await s.t.request
      .post(path("/section-groups"))
      .set(s.admin.auth)
      .send({ title: "Nothing shown", sections: [empty.body.id] })
      .expect(201);
    const again = await s.t.request.get(path("/published")).set(s.reader.auth).expect(200);
    expect(again.body.structure.structure.map(shape)).toEqual(top.map(shape));
    const listed = await s.t.request.get(path("/sections")).set(s.reader.auth).expect(200);
    expect(listed.body.items.map((x: { title: string }) => x.title)).toEqual(["Three", site.title, "Empty"]);
  });

  it("puts an active share link's key into published URLs and ignores other keys", async () => {
    const site = await createSite(s, { spaces: "empty" });
    const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
    await s.t.request.patch(path()).set(s.admin.auth).send({ visibility: "share-link" }).expect(200);
    await s.t.request.post(path("/publish")).set(s.admin.auth).expect(200);
    const link = await s.t.request
      .post(path("/share-links"))
      .set(s.admin.auth)
      .send({ name: "Review" })
      .expect(201);
    const key = new URL(link.body.urls.published).searchParams.get("share");
    const withKey = await s.t.request
      .get(path(`/published?shareKey=${key}`))
      .set(s.admin.auth)
      .expect(200);
    expect(withKey.body.site.urls.published).toBe(`http://quire.test/s/${site.id}/?share=${key}`);
    expect(withKey.body.structure.structure[0].urls.published).toBe(
      `http://quire.test/s/${site.id}/?share=${key}`,
    );
    const unknown = await s.t.request.get(path("/published?shareKey=nope")).set(s.admin.auth).expect(200);
    expect(unknown.body.site.urls.published).toBe(`http://quire.test/s/${site.id}/`);
    await s.t.request
      .patch(path(`/share-links/${link.body.id}`))
      .set(s.admin.auth)
      .send({ active: false })
      .expect(200);
    const revoked = await s.t.request
      .get(path(`/published?shareKey=${key}`))
      .set(s.admin.auth)
      .expect(200);
    expect(revoked.body.site.urls.published).toBe(`http://quire.test/s/${site.id}/`);
  });

  it("answers 404, 403 to a guest and 400", async () => {
    const site = await createSite(s);
    const path = sitePath(s.organizationId, site.id, "/published");
    await s.t.request.get(path).set(s.outsider.auth).expect(404);
    await s.t.request.get(path).set(s.guest.auth).expect(403);
    await s.t.request.get(`${path}?x=1`).set(s.admin.auth).expect(400);
  });
});

describe("Site.siteSpaces", () => {
  it("counts the shown site spaces of every container, as listSiteSpaces does", async () => {
    const [a, b, c] = await buildSpaces(s, "A", "B", "C");
    const site = await createSite(s, { spaces: [a?.id ?? "", b?.id ?? ""] });
    const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
    await s.t.request.post(path("/sections")).set(s.admin.auth).send({ spaceId: c?.id }).expect(201);
    const count = async () => {
      const [one, list] = await Promise.all([
        s.t.request.get(path()).set(s.admin.auth).expect(200),
        s.t.request.get(path("/site-spaces")).set(s.admin.auth).expect(200),
      ]);
      expect(one.body.siteSpaces).toBe(list.body.count);
      return one.body.siteSpaces;
    };
    expect(await count()).toBe(3);
    // A deleted space's link is hidden until the space is restored.
    await s.t.request.delete(`/v1/spaces/${b?.id}`).set(s.admin.auth).expect(204);
    expect(await count()).toBe(2);
    await s.t.request.post(`/v1/spaces/${b?.id}/restore`).set(s.admin.auth).expect(200);
    expect(await count()).toBe(3);
    const recount = await s.t.db
      .selectFrom("site_spaces")
      .select("id")
      .where("site_id", "=", site.id)
      .execute();
    expect(recount.length).toBe(3);
  });
});
