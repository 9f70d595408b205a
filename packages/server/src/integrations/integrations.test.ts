import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembership } from "../members/index.js";
import { buildSpace } from "../testing/factories.js";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";
import { decryptSecret } from "./secrets.js";

let t: TestApp;
/** Organization A publishes; `reader` reads in it; `outsider` is in no organization. */
let orgA: string;
let adminA: TestUser;
let reader: TestUser;
let outsider: TestUser;
/** Organization B installs what A publishes. */
let orgB: string;
let adminB: TestUser;

beforeAll(async () => {
  ({ t, organizationId: orgA, admin: adminA, reader, outsider } = await createOrganizationScenario());
  ({ organizationId: orgB, admin: adminB } = await t.organization());
});
afterAll(() => t.close());

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4nGNgAAIAAAUAAXpeqz8AAAAASUVORK5CYII=";

let names = 0;
/** A name no other test uses: integration names are global. */
const uniqueName = (prefix = "integration") => `${prefix}-${++names}`;

const publishBody = (organization: string, fields: Record<string, unknown> = {}) => ({
  title: "Weather",
  description: "Shows the weather",
  scopes: ["space:content:read"],
  script: "export default {};",
  organization,
  ...fields,
});

const publish = (user: TestUser, name: string, body: object) =>
  t.request.post(`/v1/integrations/${name}`).set(user.auth).send(body);

/** A published integration of `organization` (A by default), answered 200. */
async function published(fields: Record<string, unknown> = {}, organization = orgA, publisher = adminA) {
  const name = uniqueName();
  const res = await publish(publisher, name, publishBody(organization, fields)).expect(200);
  return { name, body: res.body };
}

const install = (user: TestUser, name: string, organization: string) =>
  t.request.post(`/v1/integrations/${name}/installations`).set(user.auth).send({ organization });

const namesIn = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

/** The names of the integrations `organizationId` owns that `user` lists with these filters. */
const listedBy = (organizationId: string, user: TestUser) => async (filters: Record<string, string>) =>
  namesIn(
    await t.request
      .get("/v1/integrations")
      .query({ owner: organizationId, ...filters })
      .set(user.auth)
      .expect(200),
  );

/** A new user who reads in A and administers a new organization of their own. */
async function readerOfAAdminElsewhere() {
  const { organizationId, admin } = await t.organization();
  await addMembership(t.db, t, {
    organizationId: orgA,
    userId: admin.user.id,
    role: "read",
    joinedAt: t.clock.now().toISOString(),
  });
  return { organizationId, user: admin };
}

const configurations = {
  account: {
    properties: {
      city: { type: "string", title: "City" },
      units: { type: "string", enum: ["metric", "imperial"], default: "metric" },
      days: { type: "number" },
      alerts: { type: "boolean", default: false },
      refresh: { type: "button", button_text: "Refresh", callback_url: "/refresh" },
    },
    required: ["city"],
  },
};

describe("POST /v1/integrations/{integrationName}", () => {
  it("publishes version 1 with the defaults, owned by the organization", async () => {
    const name = uniqueName("weather");
    const res = await publish(adminA, name, publishBody(orgA)).expect(200);
    expect(res.body).toMatchObject({
      object: "integration",
      name,
      version: 1,
      title: "Weather",
      description: "Shows the weather",
      visibility: "private",
      target: "all",
      verified: false,
      scopes: ["space:content:read"],
      categories: [],
      externalLinks: [],
      previewImages: [],
      owner: { object: "organization", id: orgA },
      permissions: { admin: true, install: true },
      urls: { location: `http://quire.test/v1/integrations/${name}` },
    });
    expect(res.body.urls.icon).toBeUndefined();
    // The signing secret of its events is in the answers of publications only.
    const { signingSecret, ...shown } = res.body;
    expect(signingSecret).toMatch(/^[0-9a-f]{64}$/);
    const read = await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(200);
    expect(read.body).toEqual(shown);
  });

  it("publishes again as a new version replacing the definition, by the organization's hostname too", async () => {
    const { name } = await published({
      categories: ["analytics"],
      blocks: [{ id: "map", title: "Map", urlUnfurl: ["https://maps.example.com/*"] }],
    });
    const hostname = `pub${names}`;
    await t.db.updateTable("organizations").set({ hostname }).where("id", "=", orgA).execute();
    const res = await publish(adminA, name, publishBody(hostname, { title: "Weather 2" })).expect(200);
    expect(res.body).toMatchObject({ version: 2, title: "Weather 2", categories: [], blocks: [] });
    const read = await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(200);
    expect(read.body).toMatchObject({ version: 2, title: "Weather 2", blocks: [] });
    const byDomain = await t.request
      .get("/v1/integrations")
      .query({ owner: orgA, blockDomain: "example.com" })
      .set(adminA.auth)
      .expect(200);
    expect(namesIn(byDomain)).not.toContain(name);
    await publish(adminA, name, publishBody(orgA)).expect(200);
    const third = await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(200);
    expect(third.body.version).toBe(3);
  });

  it("answers 409 when another organization publishes a name it does not own, leaving the version", async () => {
    const { name } = await published({ visibility: "public" });
    const res = await publish(adminB, name, publishBody(orgB)).expect(409);
    expect(res.body.error.message).toContain(name);
    const read = await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(200);
    expect(read.body).toMatchObject({ version: 1, owner: { id: orgA } });
  });

  it("lets another organization take a name once it is unpublished", async () => {
    const { name } = await published();
    await t.request.delete(`/v1/integrations/${name}`).set(adminA.auth).expect(204);
    const res = await publish(adminB, name, publishBody(orgB)).expect(200);
    expect(res.body).toMatchObject({ version: 1, owner: { id: orgB } });
  });

  it("stores secrets encrypted, never returning them", async () => {
    const plain = "sk_live_very_secret_value";
    const { name, body } = await published({ secrets: { API_KEY: plain } });
    expect(JSON.stringify(body)).not.toContain(plain);
    const read = await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(200);
    expect(JSON.stringify(read.body)).not.toContain(plain);
    const row = await t.db
      .selectFrom("integrations")
      .select(["id", "secrets"])
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    expect(row.secrets).not.toContain(plain);
    const stored = (JSON.parse(row.secrets) as Record<string, string>).API_KEY as string;
    expect(decryptSecret(t.secretKey, row.id, "API_KEY", stored)).toBe(plain);
    // Bound to its integration and name: the same value elsewhere does not decrypt.
    expect(() => decryptSecret(t.secretKey, row.id, "OTHER", stored)).toThrow();
    expect(() =>
      decryptSecret("another-key-of-at-least-32-characters!!", row.id, "API_KEY", stored),
    ).toThrow();
  });

  it("stores a PNG icon and preview images, shown by URL, and ignores properties it does not know", async () => {
    const { name, body } = await published({ icon: PNG, previewImages: [PNG, PNG], runtime: "v2" });
    expect(body.urls.icon).toMatch(/^http:\/\/quire\.test\/v1\/integrations\/.+\/assets\/[0-9a-f]{64}\.png$/);
    expect(body.previewImages).toEqual([body.urls.icon, body.urls.icon]);
    const images = await t.db
      .selectFrom("integration_images")
      .innerJoin("integrations", "integrations.id", "integration_images.integration_id")
      .select("data")
      .where("integrations.name", "=", name)
      .execute();
    expect(images).toEqual([{ data: PNG }]);
    // Served without a token, as an <img> loads it.
    const iconPath = new URL(body.urls.icon).pathname;
    const served = await t.request.get(iconPath).expect(200).expect("content-type", "image/png");
    expect(served.body.toString("base64")).toBe(PNG);
    await t.request.get(iconPath.replace(name, uniqueName())).expect(404);
    await t.request.get(iconPath.replace(/[0-9a-f]{64}/, "0".repeat(64))).expect(404);
  });

  it("answers 400 for an icon that is not base64 PNG or too large, and stores nothing", async () => {
    const name = uniqueName();
    const notPng = Buffer.from("GIF89a not a png").toString("base64");
    await publish(adminA, name, publishBody(orgA, { icon: notPng })).expect(400);
    await publish(adminA, name, publishBody(orgA, { icon: "%%%" })).expect(400);
    const large = Buffer.concat([Buffer.from(PNG, "base64"), Buffer.alloc(251 * 1024)]).toString("base64");
    const res = await publish(adminA, name, publishBody(orgA, { icon: large })).expect(400);
    expect(res.body.error.message).toContain("icon");
    await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(404);
  });

  it("answers 400 for configuration schemas whose defaults or required names do not fit", async () => {
    const name = uniqueName();
    const withAccount = (account: object) => publishBody(orgA, { configurations: { account } });
    const wrongDefault = withAccount({ properties: { days: { type: "number", default: "7" } } });
    const res = await publish(adminA, name, wrongDefault).expect(400);
    expect(res.body.error.message).toContain("configurations.account.properties.days");
    const outOfEnum = withAccount({
      properties: { units: { type: "string", enum: ["metric"], default: "imperial" } },
    });
    await publish(adminA, name, outOfEnum).expect(400);
    await publish(adminA, name, withAccount({ properties: { a: { type: "string", enum: [] } } })).expect(400);
    const unknownLevel = publishBody(orgA, { configurations: { organization: { properties: {} } } });
    const refused = await publish(adminA, name, unknownLevel).expect(400);
    expect(refused.body.error.message).toBe(
      "configurations.organization: the levels are account, space, site.",
    );
    const reserved = JSON.parse('{"properties": {"__proto__": {"type": "string"}}}');
    await publish(adminA, name, withAccount(reserved)).expect(400);
    await publish(adminA, name, withAccount({ properties: { constructor: { type: "number" } } })).expect(400);
    const unknownRequired = withAccount({ properties: {}, required: ["city"] });
    await publish(adminA, name, unknownRequired).expect(400);
    await publish(adminA, name, withAccount({ required: ["city"] })).expect(400);
    await publish(adminA, name, withAccount({ properties: { x: { type: "boolean", enum: ["a"] } } })).expect(
      400,
    );
  });

  it("answers 400 for a body the contract refuses", async () => {
    const name = uniqueName();
    await publish(adminA, name, publishBody(orgA, { title: "x" })).expect(400);
    await publish(adminA, name, publishBody(orgA, { scopes: ["everything"] })).expect(400);
    await publish(adminA, "not a name!", publishBody(orgA)).expect(400);
    const { organization: _, ...withoutOrganization } = publishBody(orgA);
    await publish(adminA, name, withoutOrganization).expect(400);
  });

  it("answers 404 for an organization the caller is not in, 403 to a non-admin", async () => {
    const name = uniqueName();
    await publish(outsider, name, publishBody(orgA)).expect(404);
    await publish(adminB, name, publishBody(orgA)).expect(404);
    await publish(adminA, name, publishBody("no-such-organization")).expect(404);
    const res = await publish(reader, name, publishBody(orgA)).expect(403);
    expect(res.body).toEqual({ error: { code: 403, type: "forbidden", message: expect.any(String) } });
    await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(404);
  });
});

describe("GET /v1/integrations", () => {
  /** A new publishing organization with one integration of each visibility. */
  async function ownerWithEachVisibility() {
    const { organizationId, admin } = await t.organization();
    const of = async (visibility: string) => (await published({ visibility }, organizationId, admin)).name;
    return {
      organizationId,
      admin,
      publicName: await of("public"),
      privateName: await of("private"),
      unlistedName: await of("unlisted"),
    };
  }

  it("lists public integrations to everyone and all of an organization to its members", async () => {
    const owner = await ownerWithEachVisibility();
    const query = { owner: owner.organizationId };
    const seenByOutsider = await t.request
      .get("/v1/integrations")
      .query(query)
      .set(outsider.auth)
      .expect(200);
    expect(namesIn(seenByOutsider)).toEqual([owner.publicName]);
    expect(seenByOutsider.body.count).toBe(1);
    expect(seenByOutsider.body.items[0]).toMatchObject({
      permissions: { admin: false, install: false },
      owner: { id: owner.organizationId, emailDomains: [] },
    });
    const seenByAdminB = await t.request.get("/v1/integrations").query(query).set(adminB.auth).expect(200);
    expect(seenByAdminB.body.items[0].permissions).toEqual({ admin: false, install: true });
    const seenByOwner = await t.request
      .get("/v1/integrations")
      .query(query)
      .set(owner.admin.auth)
      .expect(200);
    expect(namesIn(seenByOwner).sort()).toEqual(
      [owner.publicName, owner.privateName, owner.unlistedName].sort(),
    );
  });

  it("filters by a case-insensitive search of name or title, escaping LIKE's characters", async () => {
    const { organizationId, admin } = await t.organization();
    const byTitle = await published({ title: "Über Forecast" }, organizationId, admin);
    const literal = await published({ title: "100% Sunny" }, organizationId, admin);
    const search = async (text: string) =>
      namesIn(
        await t.request
          .get("/v1/integrations")
          .query({ owner: organizationId, search: text })
          .set(admin.auth)
          .expect(200),
      );
    expect(await search("über FORE")).toEqual([byTitle.name]);
    expect(await search(byTitle.name.toUpperCase())).toEqual([byTitle.name]);
    expect(await search("0% s")).toEqual([literal.name]);
    expect(await search("1_0")).toEqual([]);
  });

  it("filters by category, blocks, content sources and block domain", async () => {
    const { organizationId, admin } = await t.organization();
    const withBlocks = await published(
      {
        categories: ["analytics", "visitor-auth"],
        blocks: [
          { id: "file", title: "Figma file", urlUnfurl: ["https://*.www.Figma.com:443/file/*"] },
          { id: "plain", title: "Plain block" },
        ],
      },
      organizationId,
      admin,
    );
    const withSources = await published(
      {
        categories: ["content"],
        contentSources: [{ id: "pages", title: "Pages", configuration: { componentId: "configure" } }],
      },
      organizationId,
      admin,
    );
    const list = listedBy(organizationId, admin);
    expect(await list({ category: "visitor-auth" })).toEqual([withBlocks.name]);
    expect(await list({ category: "content" })).toEqual([withSources.name]);
    expect(await list({ category: "marketing" })).toEqual([]);
    expect(await list({ blocks: "true" })).toEqual([withBlocks.name]);
    expect(await list({ blocks: "false" })).toEqual([withSources.name]);
    expect(await list({ contentSources: "true" })).toEqual([withSources.name]);
    expect(await list({ contentSources: "false" })).toEqual([withBlocks.name]);
    expect(await list({ blockDomain: "figma.com" })).toEqual([withBlocks.name]);
    expect(await list({ blockDomain: "WWW.figma.com" })).toEqual([withBlocks.name]);
    expect(await list({ blockDomain: "igma.com" })).toEqual([]);
    expect(await list({ blockDomain: "file" })).toEqual([]);
  });

  it("filters by GitBook's scope and target, an integration for every target matching any", async () => {
    const { organizationId, admin } = await t.organization();
    const writer = await published(
      { scopes: ["space:content:read", "space:content:write"], target: "space" },
      organizationId,
      admin,
    );
    const everywhere = await published(
      { scopes: ["space:views:read"], target: "all" },
      organizationId,
      admin,
    );
    const forSites = await published({ target: "site" }, organizationId, admin);
    const list = async (filters: Record<string, string>) =>
      (await listedBy(organizationId, admin)(filters)).sort();
    expect(await list({ scope: "space:content:write" })).toEqual([writer.name]);
    expect(await list({ scope: "space:content:read" })).toEqual([writer.name, forSites.name].sort());
    expect(await list({ scope: "space:metadata:read" })).toEqual([]);
    expect(await list({ target: "space" })).toEqual([writer.name, everywhere.name].sort());
    expect(await list({ target: "site" })).toEqual([everywhere.name, forSites.name].sort());
    expect(await list({ target: "organization", scope: "space:views:read" })).toEqual([everywhere.name]);
    await t.request.get("/v1/integrations").query({ scope: "everything" }).set(admin.auth).expect(400);
    await t.request.get("/v1/integrations").query({ target: "planet" }).set(admin.auth).expect(400);
  });

  it("pages by name", async () => {
    const { organizationId, admin } = await t.organization();
    for (let i = 0; i < 3; i++) await published({}, organizationId, admin);
    const first = await t.request
      .get("/v1/integrations")
      .query({ owner: organizationId, limit: 2 })
      .set(admin.auth)
      .expect(200);
    expect(first.body.count).toBe(3);
    const second = await t.request
      .get("/v1/integrations")
      .query({ owner: organizationId, limit: 2, page: first.body.next.page })
      .set(admin.auth)
      .expect(200);
    const all = [...namesIn(first), ...namesIn(second)];
    expect(all).toEqual([...all].sort());
    expect(new Set(all).size).toBe(3);
    expect(second.body.next).toBeUndefined();
  });

  it("answers 400 for filters the contract refuses", async () => {
    await t.request.get("/v1/integrations").query({ category: "nope" }).set(adminA.auth).expect(400);
    await t.request.get("/v1/integrations").query({ blockDomain: "a/b" }).set(adminA.auth).expect(400);
    await t.request.get("/v1/integrations").query({ blocks: "maybe" }).set(adminA.auth).expect(400);
    await t.request.get("/v1/integrations").query({ page: "garbage" }).set(adminA.auth).expect(400);
  });
});

describe("GET /v1/integrations/{integrationName}", () => {
  it("shows members of the owner a private integration with their permissions", async () => {
    const { name } = await published({ configurations, contentSecurityPolicy: "default-src 'self'" });
    const res = await t.request.get(`/v1/integrations/${name}`).set(reader.auth).expect(200);
    expect(res.body).toMatchObject({
      name,
      configurations,
      contentSecurityPolicy: "default-src 'self'",
      permissions: { admin: false, install: false },
    });
    expect(res.body.owner.emailDomains).toEqual([]);
  });

  it("takes GitBook's forms: a content security policy by directive, a configuration without properties", async () => {
    const { name } = await published({
      contentSecurityPolicy: {
        "default-src": "'self'",
        "img-src": "* data:",
        "upgrade-insecure-requests": "",
      },
      configurations: { account: {}, space: { required: [] }, site: { componentId: "configure-site" } },
    });
    const res = await t.request.get(`/v1/integrations/${name}`).set(reader.auth).expect(200);
    expect(res.body).toMatchObject({
      contentSecurityPolicy: "default-src 'self'; img-src * data:; upgrade-insecure-requests",
      // GitBook's component of a configuration is kept as published.
      configurations: { account: {}, space: { required: [] }, site: { componentId: "configure-site" } },
    });
    // An installation configures no property of an empty schema.
    const installed = await install(adminA, name, orgA).expect(201);
    expect(installed.body.configuration ?? {}).toEqual({});
    for (const contentSecurityPolicy of [
      { "default-src": "'self'; script-src *" },
      { "script-src": "a,b" },
      { "img-src": 3 },
    ])
      await publish(adminA, uniqueName(), publishBody(orgA, { contentSecurityPolicy })).expect(400);
  });

  it("shows an unlisted integration to anyone who knows its name", async () => {
    const { name } = await published({ visibility: "unlisted" });
    const res = await t.request.get(`/v1/integrations/${name}`).set(adminB.auth).expect(200);
    expect(res.body.permissions).toEqual({ admin: false, install: true });
  });

  it("answers 404 for a private integration of another organization and for an unknown name", async () => {
    const { name } = await published({ visibility: "private" });
    await t.request.get(`/v1/integrations/${name}`).set(adminB.auth).expect(404);
    await t.request.get(`/v1/integrations/${name}`).set(outsider.auth).expect(404);
    await t.request.get(`/v1/integrations/${uniqueName()}`).set(adminA.auth).expect(404);
  });

  it("answers 400 for a name the contract refuses", async () => {
    await t.request
      .get(`/v1/integrations/${"x".repeat(101)}`)
      .set(adminA.auth)
      .expect(400);
  });
});

describe("DELETE /v1/integrations/{integrationName}", () => {
  it("unpublishes the integration with its installations", async () => {
    const { name } = await published({ visibility: "public", icon: PNG });
    const installed = await install(adminB, name, orgB).expect(201);
    const { id } = await t.db
      .selectFrom("integrations")
      .select("id")
      .where("name", "=", name)
      .executeTakeFirstOrThrow();
    await t.request.delete(`/v1/integrations/${name}`).set(adminA.auth).expect(204);
    await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(404);
    await t.request
      .get(`/v1/integrations/${name}/installations/${installed.body.id}`)
      .set(adminB.auth)
      .expect(404);
    const left = await t.db
      .selectFrom("integration_installations")
      .select("id")
      .where("id", "=", installed.body.id)
      .union(t.db.selectFrom("integration_images").select("hash as id").where("integration_id", "=", id))
      .execute();
    expect(left).toEqual([]);
  });

  it("answers 403 to a reader of the owner and to admins of other organizations, keeping it", async () => {
    const { name } = await published({ visibility: "public" });
    await t.request.delete(`/v1/integrations/${name}`).set(reader.auth).expect(403);
    await t.request.delete(`/v1/integrations/${name}`).set(adminB.auth).expect(403);
    await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(200);
  });

  it("answers 404 for a private integration of another organization or an unknown name, and 400", async () => {
    const { name } = await published();
    await t.request.delete(`/v1/integrations/${name}`).set(adminB.auth).expect(404);
    await t.request.delete(`/v1/integrations/${uniqueName()}`).set(adminA.auth).expect(404);
    await t.request.delete("/v1/integrations/not%20a%20name").set(adminA.auth).expect(400);
    await t.request.get(`/v1/integrations/${name}`).set(adminA.auth).expect(200);
  });
});

describe("POST /v1/integrations/{integrationName}/installations", () => {
  it("installs with the defaults of the configuration, pending while a required property is missing", async () => {
    const { name } = await published({ visibility: "public", configurations });
    const res = await install(adminB, name, orgB).expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      target: { organization: orgB },
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
      urls: {
        location: `http://quire.test/v1/integrations/${name}/installations/${res.body.id}`,
        app: `http://quire.test/app/orgs/${orgB}/integrations/${name}`,
        publicEndpoint: `http://quire.test/v1/integrations/${name}/installations/${res.body.id}/endpoint`,
        publicContentEndpoint: `http://quire.test/v1/integrations/${name}/installations/${res.body.id}/endpoint`,
      },
      status: "pending",
      space_selection: "selected",
      site_selection: "selected",
      spaces: 0,
      configuration: { units: "metric", alerts: false },
      externalIds: [],
    });
    expect(res.headers.location).toBe(res.body.urls.location);
    const read = await t.request
      .get(`/v1/integrations/${name}/installations/${res.body.id}`)
      .set(adminB.auth);
    expect(read.body).toEqual(res.body);
  });

  it("installs as active when nothing is required, and a private integration on its owner", async () => {
    const { name } = await published();
    const res = await install(adminA, name, orgA).expect(201);
    expect(res.body).toMatchObject({ status: "active", configuration: {} });
  });

  it("answers 409 for a second installation on the same organization", async () => {
    const { name } = await published({ visibility: "public" });
    await install(adminB, name, orgB).expect(201);
    await install(adminB, name, orgB).expect(409);
    const list = await t.request.get(`/v1/integrations/${name}/installations`).set(adminB.auth).expect(200);
    expect(list.body.count).toBe(1);
  });

  it("answers 403 to a non-admin of the organization, and for a private integration on another organization", async () => {
    const { name } = await published({ visibility: "public" });
    await install(reader, name, orgA).expect(403);
    const privateOne = await published({ visibility: "private" });
    const member = await readerOfAAdminElsewhere();
    const res = await install(member.user, privateOne.name, member.organizationId).expect(403);
    expect(res.body.error.message).toContain("private");
    const list = await t.request.get(`/v1/integrations/${name}/installations`).set(adminA.auth).expect(200);
    expect(list.body.count).toBe(0);
  });

  it("answers 404 for an organization the caller is not in or an integration they cannot see, and 400", async () => {
    const { name } = await published({ visibility: "public" });
    await install(adminA, name, orgB).expect(404);
    await install(outsider, name, orgA).expect(404);
    const privateOne = await published({ visibility: "private" });
    await install(adminB, privateOne.name, orgB).expect(404);
    await install(adminB, uniqueName(), orgB).expect(404);
    await t.request.post(`/v1/integrations/${name}/installations`).set(adminB.auth).send({}).expect(400);
  });
});

describe("GET /v1/integrations/{integrationName}/installations", () => {
  it("lists all installations to the owner's admins and their own to other admins", async () => {
    const { name } = await published({ visibility: "public" });
    const onA = await install(adminA, name, orgA).expect(201);
    const onB = await install(adminB, name, orgB).expect(201);
    const byOwner = await t.request
      .get(`/v1/integrations/${name}/installations`)
      .set(adminA.auth)
      .expect(200);
    expect(byOwner.body.items.map((i: { id: string }) => i.id)).toEqual([onA.body.id, onB.body.id]);
    const byB = await t.request.get(`/v1/integrations/${name}/installations`).set(adminB.auth).expect(200);
    expect(byB.body).toEqual({ count: 1, items: [onB.body] });
    const page = await t.request
      .get(`/v1/integrations/${name}/installations`)
      .query({ limit: 1 })
      .set(adminA.auth)
      .expect(200);
    expect(page.body).toMatchObject({ count: 2, items: [{ id: onA.body.id }], next: expect.anything() });
  });

  it("filters by external id", async () => {
    const { name } = await published({ visibility: "public" });
    const onA = await install(adminA, name, orgA).expect(201);
    await install(adminB, name, orgB).expect(201);
    await t.request
      .patch(`/v1/integrations/${name}/installations/${onA.body.id}`)
      .set(adminA.auth)
      .send({ externalIds: ["team-1", "team_2"] })
      .expect(200);
    const list = async (externalId: string) =>
      (
        await t.request
          .get(`/v1/integrations/${name}/installations`)
          .query({ externalId })
          .set(adminA.auth)
          .expect(200)
      ).body.items.map((i: { id: string }) => i.id);
    expect(await list("team_2")).toEqual([onA.body.id]);
    expect(await list("team")).toEqual([]);
  });

  it("answers 403 to a caller who administers no organization", async () => {
    const { name } = await published({ visibility: "public" });
    await t.request.get(`/v1/integrations/${name}/installations`).set(reader.auth).expect(403);
    await t.request.get(`/v1/integrations/${name}/installations`).set(outsider.auth).expect(403);
  });

  it("answers 404 for an integration the caller cannot see, and 400", async () => {
    const { name } = await published();
    await t.request.get(`/v1/integrations/${name}/installations`).set(adminB.auth).expect(404);
    await t.request.get(`/v1/integrations/${uniqueName()}/installations`).set(adminA.auth).expect(404);
    await t.request.get(`/v1/integrations/${name}/installations?limit=-1`).set(adminA.auth).expect(400);
  });
});

describe("GET /v1/integrations/{integrationName}/installations/{installationId}", () => {
  it("shows an installation to its organization's admins and to the owner's admins", async () => {
    const { name } = await published({ visibility: "public" });
    const onB = await install(adminB, name, orgB).expect(201);
    const url = `/v1/integrations/${name}/installations/${onB.body.id}`;
    expect((await t.request.get(url).set(adminB.auth).expect(200)).body).toEqual(onB.body);
    expect((await t.request.get(url).set(adminA.auth).expect(200)).body).toEqual(onB.body);
  });

  it("answers 403 to a member of the organization who is not its admin", async () => {
    const { name } = await published({ visibility: "public" });
    const onA = await install(adminA, name, orgA).expect(201);
    await t.request.get(`/v1/integrations/${name}/installations/${onA.body.id}`).set(reader.auth).expect(403);
  });

  it("answers 404 for another organization, another integration or an unknown id, and 400", async () => {
    const { name } = await published({ visibility: "public" });
    const other = await published({ visibility: "public" });
    const onA = await install(adminA, name, orgA).expect(201);
    const url = `/v1/integrations/${name}/installations/${onA.body.id}`;
    await t.request.get(url).set(adminB.auth).expect(404);
    await t.request.get(url).set(outsider.auth).expect(404);
    await t.request
      .get(`/v1/integrations/${other.name}/installations/${onA.body.id}`)
      .set(adminA.auth)
      .expect(404);
    await t.request.get(`/v1/integrations/${name}/installations/unknown`).set(adminA.auth).expect(404);
    await t.request
      .get(`/v1/integrations/bad%20name/installations/${onA.body.id}`)
      .set(adminA.auth)
      .expect(400);
  });
});

describe("PATCH /v1/integrations/{integrationName}/installations/{installationId}", () => {
  async function installedOnB(fields: Record<string, unknown> = { configurations }) {
    const { name } = await published({ visibility: "public", ...fields });
    const res = await install(adminB, name, orgB).expect(201);
    return { name, id: res.body.id as string, url: `/v1/integrations/${name}/installations/${res.body.id}` };
  }

  it("replaces the configuration, checked against the schema with its defaults, and becomes active", async () => {
    const { url } = await installedOnB();
    t.clock.advance(1000);
    const res = await t.request
      .patch(url)
      .set(adminB.auth)
      .send({ configuration: { city: "Lyon", days: 3 } })
      .expect(200);
    expect(res.body).toMatchObject({
      status: "active",
      configuration: { city: "Lyon", days: 3, units: "metric", alerts: false },
      updatedAt: t.clock.now().toISOString(),
    });
    const read = await t.request.get(url).set(adminB.auth).expect(200);
    expect(read.body).toEqual(res.body);
    const pending = await t.request
      .patch(url)
      .set(adminB.auth)
      .send({ configuration: { days: 1 } })
      .expect(200);
    expect(pending.body).toMatchObject({ status: "pending", configuration: { days: 1, units: "metric" } });
  });

  it("answers 400 for unknown keys, wrong types, values out of the enum and button values, changing nothing", async () => {
    const { url } = await installedOnB();
    const before = await t.request.get(url).set(adminB.auth).expect(200);
    const refused = async (configuration: object, expected: string) => {
      const res = await t.request.patch(url).set(adminB.auth).send({ configuration }).expect(400);
      expect(res.body.error.message).toContain(expected);
    };
    await refused({ city: "Lyon", colour: "red" }, "colour");
    await refused({ city: 12 }, "configuration.city");
    await refused({ city: "Lyon", units: "kelvin" }, "metric, imperial");
    await refused({ city: "Lyon", refresh: true }, "button");
    const after = await t.request.get(url).set(adminB.auth).expect(200);
    expect(after.body).toEqual(before.body);
  });

  it("refuses any configuration key when the integration declares none", async () => {
    const { url } = await installedOnB({});
    await t.request
      .patch(url)
      .set(adminB.auth)
      .send({ configuration: { any: 1 } })
      .expect(400);
    await t.request.patch(url).set(adminB.auth).send({ configuration: {} }).expect(200);
  });

  it("replaces external ids and selections; spaces counts the live spaces of the organization when all are covered", async () => {
    const { organizationId, admin } = await t.organization();
    const { name } = await published({ visibility: "public" });
    const installed = await install(admin, name, organizationId).expect(201);
    const url = `/v1/integrations/${name}/installations/${installed.body.id}`;
    await buildSpace(t, { organization_id: organizationId });
    await buildSpace(t, { organization_id: organizationId });
    await buildSpace(t, { organization_id: organizationId, deleted_at: t.clock.now().toISOString() });
    await buildSpace(t, { organization_id: orgB });
    const res = await t.request
      .patch(url)
      .set(admin.auth)
      .send({ externalIds: ["a", "b"], space_selection: "all", site_selection: "all" })
      .expect(200);
    expect(res.body).toMatchObject({
      externalIds: ["a", "b"],
      space_selection: "all",
      site_selection: "all",
      spaces: 2,
    });
    await t.request
      .patch(url)
      .set(admin.auth)
      .send({ externalIds: ["c"] })
      .expect(200);
    const read = await t.request.get(url).set(admin.auth).expect(200);
    expect(read.body).toMatchObject({ externalIds: ["c"], space_selection: "all", spaces: 2 });
    const list = await t.request
      .get(`/v1/integrations/${name}/installations`)
      .query({ externalId: "a" })
      .set(admin.auth)
      .expect(200);
    expect(list.body.count).toBe(0);
    const back = await t.request.patch(url).set(admin.auth).send({ space_selection: "selected" }).expect(200);
    expect(back.body.spaces).toBe(0);
  });

  it("writes nothing for an empty change", async () => {
    const { url } = await installedOnB();
    const before = await t.request.get(url).set(adminB.auth).expect(200);
    t.clock.advance(1000);
    const res = await t.request.patch(url).set(adminB.auth).send({}).expect(200);
    expect(res.body).toEqual(before.body);
  });

  it("answers 400 for more than 5 external ids, repeated ones, or a selection the contract refuses", async () => {
    const { url } = await installedOnB();
    const externalIds = ["1", "2", "3", "4", "5", "6"];
    await t.request.patch(url).set(adminB.auth).send({ externalIds }).expect(400);
    await t.request
      .patch(url)
      .set(adminB.auth)
      .send({ externalIds: ["1", "1"] })
      .expect(400);
    await t.request.patch(url).set(adminB.auth).send({ space_selection: "some" }).expect(400);
    const read = await t.request.get(url).set(adminB.auth).expect(200);
    expect(read.body.externalIds).toEqual([]);
  });

  it("answers 403 to the owner's admins and to non-admins of the organization", async () => {
    const { url } = await installedOnB();
    await t.request.patch(url).set(adminA.auth).send({ space_selection: "all" }).expect(403);
    const readerOfB = await t.user({ organizationId: orgB, role: "edit" });
    await t.request.patch(url).set(readerOfB.auth).send({ space_selection: "all" }).expect(403);
    const read = await t.request.get(url).set(adminB.auth).expect(200);
    expect(read.body.space_selection).toBe("selected");
  });

  it("answers 404 for a caller in neither organization", async () => {
    const { url } = await installedOnB();
    await t.request.patch(url).set(outsider.auth).send({}).expect(404);
  });
});

describe("DELETE /v1/integrations/{integrationName}/installations/{installationId}", () => {
  it("uninstalls; the organization can install again", async () => {
    const { name } = await published({ visibility: "public" });
    const installed = await install(adminB, name, orgB).expect(201);
    const url = `/v1/integrations/${name}/installations/${installed.body.id}`;
    await t.request.delete(url).set(adminB.auth).expect(204);
    await t.request.get(url).set(adminB.auth).expect(404);
    const list = await t.request.get(`/v1/integrations/${name}/installations`).set(adminA.auth).expect(200);
    expect(list.body.count).toBe(0);
    await install(adminB, name, orgB).expect(201);
  });

  it("answers 403 to the owner's admins and to non-admins of the organization, keeping it", async () => {
    const { name } = await published({ visibility: "public" });
    const installed = await install(adminB, name, orgB).expect(201);
    const url = `/v1/integrations/${name}/installations/${installed.body.id}`;
    await t.request.delete(url).set(adminA.auth).expect(403);
    const member = await t.user({ organizationId: orgB, role: "create" });
    await t.request.delete(url).set(member.auth).expect(403);
    await t.request.get(url).set(adminB.auth).expect(200);
  });

  it("answers 404 for a caller in neither organization, and 400", async () => {
    const { name } = await published({ visibility: "public" });
    const installed = await install(adminB, name, orgB).expect(201);
    const url = `/v1/integrations/${name}/installations/${installed.body.id}`;
    await t.request.delete(url).set(outsider.auth).expect(404);
    await t.request
      .delete(`/v1/integrations/bad%20name/installations/${installed.body.id}`)
      .set(adminB.auth)
      .expect(400);
    await t.request.get(url).set(adminB.auth).expect(200);
  });
});
