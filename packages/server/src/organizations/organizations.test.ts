import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  ({ t, organizationId, admin, reader, outsider } = await createOrganizationScenario());
});
afterAll(() => t.close());

describe("GET /v1/orgs", () => {
  it("lists only the caller's organizations, with the caller's permissions", async () => {
    await t.organization();
    const res = await t.request.get("/v1/orgs").set(reader.auth).expect(200);
    expect(res.body.count).toBe(1);
    expect(res.body.items[0]).toMatchObject({
      object: "organization",
      id: organizationId,
      permissions: { admin: false, createContent: false, view: true, access: true },
    });
    // GitBook's installation flags: only admins list and install integrations' installations.
    expect(res.body.items[0].permissions).toMatchObject({
      listInstallations: false,
      installIntegration: false,
    });
  });

  it("pages through many organizations with a stable cursor", async () => {
    const many = await t.user();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.request
        .post("/v1/orgs")
        .set(many.auth)
        .send({ title: `Org number ${i}` })
        .expect(201);
      created.push(res.body.id);
    }
    const first = await t.request.get("/v1/orgs?limit=2").set(many.auth).expect(200);
    // An organization created between two page reads shows up at the end, not in the middle.
    await t.request.post("/v1/orgs").set(many.auth).send({ title: "Late arrival" }).expect(201);
    const second = await t.request
      .get("/v1/orgs")
      .query({ limit: 2, page: first.body.next.page })
      .set(many.auth);
    expect([...first.body.items, ...second.body.items].map((o: { id: string }) => o.id)).toEqual(
      created.slice(0, 4),
    );
  });

  it("answers 400 for a bad limit", async () => {
    await t.request.get("/v1/orgs?limit=abc").set(admin.auth).expect(400);
  });
});

describe("POST /v1/orgs", () => {
  it("creates an organization with the caller as admin", async () => {
    const creator = await t.user();
    const res = await t.request
      .post("/v1/orgs")
      .set(creator.auth)
      .send({ title: "Acme Docs", emailDomains: ["acme.test"] })
      .expect(201);
    expect(res.body).toMatchObject({
      title: "Acme Docs",
      emailDomains: ["acme.test"],
      type: "business",
      plan: "free_2024",
      inviteLinks: true,
      permissions: { admin: true, createContent: true, listInstallations: true, installIntegration: true },
    });
    expect(res.headers.location).toBe(res.body.urls.location);
    const read = await t.request.get(`/v1/orgs/${res.body.id}`).set(creator.auth).expect(200);
    // GitBook requires the count of trials used: Quire has no trials, so none ever was.
    expect(read.body.trial).toEqual({ status: "notapplicable", count: 0 });
    expect(res.body.trial).toEqual(read.body.trial);
  });

  it("answers 400 for a title shorter than 2 characters or missing", async () => {
    await t.request.post("/v1/orgs").set(admin.auth).send({ title: "x" }).expect(400);
    await t.request.post("/v1/orgs").set(admin.auth).send({}).expect(400);
  });
});

describe("GitBook's default site and default content", () => {
  it("creates the organization with a default site of its title and a new space (withDefaultSite)", async () => {
    const creator = await t.user();
    const res = await t.request
      .post("/v1/orgs?withDefaultSite=true")
      .set(creator.auth)
      .send({ title: "Docs With Site" })
      .expect(201);
    const siteId = res.body.defaultContent?.site;
    expect(res.body.defaultContent).toEqual({ type: "site", site: expect.any(String) });
    const orgUrl = `/v1/orgs/${res.body.id}`;
    expect((await t.request.get(orgUrl).set(creator.auth).expect(200)).body.defaultContent).toEqual(
      res.body.defaultContent,
    );
    const site = await t.request.get(`${orgUrl}/sites/${siteId}`).set(creator.auth).expect(200);
    expect(site.body).toMatchObject({ title: "Docs With Site", published: false });
    const siteSpaces = await t.request
      .get(`${orgUrl}/sites/${siteId}/site-spaces`)
      .set(creator.auth)
      .expect(200);
    expect(siteSpaces.body.items).toHaveLength(1);
    expect(siteSpaces.body.items[0].space).toMatchObject({ title: "Docs With Site" });

    // GitBook's openapiUrl is only read with withDefaultSite, where Quire cannot attach it: 400, nothing made.
    const before = (await t.request.get("/v1/orgs").set(creator.auth).expect(200)).body.count;
    const refused = await t.request
      .post("/v1/orgs?withDefaultSite=true&openapiUrl=https%3A%2F%2Fapi.test%2Fopenapi.json")
      .set(creator.auth)
      .send({ title: "Refused" })
      .expect(400);
    expect(refused.body.error.message).toMatch(/openapiUrl/);
    expect((await t.request.get("/v1/orgs").set(creator.auth).expect(200)).body.count).toBe(before);
    const plain = await t.request
      .post("/v1/orgs?openapiUrl=https%3A%2F%2Fapi.test%2Fopenapi.json")
      .set(creator.auth)
      .send({ title: "No Site" })
      .expect(201);
    expect(plain.body.defaultContent).toBeUndefined();
  });

  it("applies GitBook's onboarding audience to the default site's visibility, and refuses answers it does not know", async () => {
    const creator = await t.user();
    const onboarding = (audience: string | null) => ({
      source: "markdown-in-git",
      audience,
      interests: ["api-docs"],
    });
    const visibilityFor = async (audience: string | null) => {
      const org = (
        await t.request
          .post("/v1/orgs?withDefaultSite=true")
          .set(creator.auth)
          .send({ title: `Audience ${audience}`, onboardingPreferences: onboarding(audience) })
          .expect(201)
      ).body;
      const site = await t.request
        .get(`/v1/orgs/${org.id}/sites/${org.defaultContent.site}`)
        .set(creator.auth)
        .expect(200);
      return site.body.visibility;
    };
    expect(await visibilityFor("internal")).toBe("share-link");
    expect(await visibilityFor("protected")).toBe("visitor-auth");
    expect(await visibilityFor("mixed")).toBe("public");
    expect(await visibilityFor(null)).toBe("public");

    // Without withDefaultSite there is no site to apply them to: accepted, as GitBook does.
    const plain = await t.request
      .post("/v1/orgs")
      .set(creator.auth)
      .send({ title: "No Site", onboardingPreferences: onboarding("internal") })
      .expect(201);
    expect(plain.body.defaultContent).toBeUndefined();

    const before = (await t.request.get("/v1/orgs").set(creator.auth).expect(200)).body.count;
    const refused = await t.request
      .post("/v1/orgs?withDefaultSite=true")
      .set(creator.auth)
      .send({ title: "Refused", onboardingPreferences: onboarding("everyone") })
      .expect(400);
    expect(refused.body.error.message).toMatch(/onboardingPreferences\/audience/);
    expect((await t.request.get("/v1/orgs").set(creator.auth).expect(200)).body.count).toBe(before);
  });

  it("sets the default content to one of the organization's sites, refuses another's, clears it", async () => {
    const creator = await t.user();
    const org = (await t.request.post("/v1/orgs").set(creator.auth).send({ title: "Pointing" }).expect(201))
      .body;
    const other = (
      await t.request
        .post("/v1/orgs?withDefaultSite=true")
        .set(creator.auth)
        .send({ title: "Other" })
        .expect(201)
    ).body;
    const orgUrl = `/v1/orgs/${org.id}`;
    const site = (
      await t.request.post(`${orgUrl}/sites`).set(creator.auth).send({ title: "Main" }).expect(201)
    ).body;
    const set = await t.request
      .patch(orgUrl)
      .set(creator.auth)
      .send({ defaultContent: { type: "site", site: site.id } })
      .expect(200);
    expect(set.body.defaultContent).toEqual({ type: "site", site: site.id });
    const refused = await t.request
      .patch(orgUrl)
      .set(creator.auth)
      .send({ title: "Renamed", defaultContent: { type: "site", site: other.defaultContent.site } })
      .expect(400);
    expect(refused.body.error.message).toMatch(/defaultContent/);
    const read = (await t.request.get(orgUrl).set(creator.auth).expect(200)).body;
    expect(read).toMatchObject({ title: "Pointing", defaultContent: { type: "site", site: site.id } });
    // Deleting the site clears the default content that named it.
    await t.request.delete(`${orgUrl}/sites/${site.id}`).set(creator.auth).expect(204);
    expect((await t.request.get(orgUrl).set(creator.auth).expect(200)).body.defaultContent).toBeUndefined();
    await t.request
      .patch(orgUrl)
      .set(creator.auth)
      .send({ defaultContent: { type: "site", site: site.id } })
      .expect(400);
    const second = (await t.request.post(`${orgUrl}/sites`).set(creator.auth).send({}).expect(201)).body;
    await t.request
      .patch(orgUrl)
      .set(creator.auth)
      .send({ defaultContent: { type: "site", site: second.id } })
      .expect(200);
    const cleared = await t.request
      .patch(orgUrl)
      .set(creator.auth)
      .send({ defaultContent: null })
      .expect(200);
    expect(cleared.body.defaultContent).toBeUndefined();
  });
});

describe("GET /v1/orgs/{organizationId}", () => {
  it("returns the organization", async () => {
    const res = await t.request.get(`/v1/orgs/${organizationId}`).set(admin.auth).expect(200);
    expect(res.body).toMatchObject({
      id: organizationId,
      urls: { location: `http://quire.test/v1/orgs/${organizationId}` },
    });
  });

  it("answers 404 to non-members and 400", async () => {
    await t.request.get(`/v1/orgs/${organizationId}`).set(outsider.auth).expect(404);
    await t.request.get(`/v1/orgs/${organizationId}?expand=1`).set(admin.auth).expect(400);
  });
});

describe("PATCH /v1/orgs/{organizationId}", () => {
  it("updates settings; null defaultRole makes new members guests", async () => {
    const res = await t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(admin.auth)
      .send({
        title: "Renamed org",
        hostname: "renamed",
        defaultRole: null,
        ai: true,
        logo: "https://cdn.test/logo.png",
      })
      .expect(200);
    expect(res.body).toMatchObject({
      title: "Renamed org",
      hostname: "renamed",
      defaultRole: null,
      ai: true,
    });
    expect(res.body.urls.logo).toBe("https://cdn.test/logo.png");
  });

  it("answers 409 when another organization has the hostname", async () => {
    const other = await t.organization();
    await t.request
      .patch(`/v1/orgs/${other.organizationId}`)
      .set(other.admin.auth)
      .send({ hostname: "taken" })
      .expect(200);
    await t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(admin.auth)
      .send({ hostname: "taken" })
      .expect(409);
  });

  it("answers 403, 404 and 400, changing nothing", async () => {
    await t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(reader.auth)
      .send({ title: "Hacked" })
      .expect(403);
    await t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(outsider.auth)
      .send({ title: "Hacked" })
      .expect(404);
    await t.request.patch(`/v1/orgs/${organizationId}`).set(admin.auth).send({ hostname: "ab" }).expect(400);
    await t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(admin.auth)
      .send({ defaultRole: "owner" })
      .expect(400);
    const res = await t.request.get(`/v1/orgs/${organizationId}`).set(admin.auth);
    expect(res.body.title).not.toBe("Hacked");
  });
});

describe("corrections", () => {
  it("refuses a logo that is not an http(s) URL and a hostname that is not a DNS label", async () => {
    const { organizationId, admin } = await t.organization();
    for (const body of [
      { logo: "javascript:alert(1)" },
      { logo: "data:image/png;base64,AAAA" },
      { hostname: "Has Spaces" },
      { hostname: "-dash" },
    ]) {
      const res = await t.request.patch(`/v1/orgs/${organizationId}`).set(admin.auth).send(body).expect(400);
      expect(res.body.error.message).toMatch(/logo|hostname/);
    }
    const ok = await t.request
      .patch(`/v1/orgs/${organizationId}`)
      .set(admin.auth)
      .send({ logo: "https://example.com/logo.png", hostname: "my-docs" })
      .expect(200);
    expect(ok.body).toMatchObject({ hostname: "my-docs", urls: { logo: "https://example.com/logo.png" } });
  });

  it("keeps updatedAt when a PATCH changes nothing", async () => {
    const { organizationId, admin } = await t.organization();
    const before = await t.request.get(`/v1/orgs/${organizationId}`).set(admin.auth).expect(200);
    t.clock.advance(1000);
    await t.request.patch(`/v1/orgs/${organizationId}`).set(admin.auth).send({}).expect(200);
    const stored = await t.db
      .selectFrom("organizations")
      .select("updated_at")
      .where("id", "=", organizationId)
      .executeTakeFirstOrThrow();
    expect(stored.updated_at).toBe(before.body.createdAt);
  });
});
