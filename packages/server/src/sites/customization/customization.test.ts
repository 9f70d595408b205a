import type { Schema } from "@quire/api-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildSpaces,
  createSite,
  createSiteScenario,
  createStrangerSite,
  type SiteScenario,
  sitePath,
} from "../testing.js";
import { DEFAULT_CUSTOMIZATION } from "./settings.js";

let s: SiteScenario;
beforeAll(async () => {
  s = await createSiteScenario();
});
afterAll(() => s.t.close());

type Settings = Schema<"SiteCustomizationSettings">;

/** A full replacement: GitBook's defaults with a brand of its own. */
const branded = (): Schema<"SiteCustomizationSettingsInput"> => ({
  ...DEFAULT_CUSTOMIZATION,
  title: "Handbook",
  styling: {
    ...DEFAULT_CUSTOMIZATION.styling,
    primaryColor: { light: "#ff0000", dark: "#0f0" },
    tint: { color: { light: "#123456", dark: "#654321" } },
  },
  header: {
    logo: { light: "https://example.com/light.png", dark: "https://example.com/dark.png" },
    links: [{ title: "Blog", to: { kind: "url", url: "https://example.com/blog" }, links: [] }],
  },
  footer: { groups: [{ title: "More", links: [] }], copyright: "© Example" },
  announcement: { enabled: true, message: "Hello", style: "warning" },
  themes: { default: "dark", toggeable: false },
});

/** A site with two root site spaces, its paths and its site spaces' ids. */
async function siteWithSpaces() {
  const spaces = await buildSpaces(s, "One", "Two");
  const site = await createSite(s, { spaces: spaces.map((space) => space.id) });
  const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
  const links = (await s.t.request.get(path("/site-spaces")).set(s.admin.auth).expect(200)).body.items;
  const [first, second] = links.map((link: { id: string }) => link.id) as string[];
  return { site, path, first: first ?? "", second: second ?? "" };
}

const read = async (path: string): Promise<Settings> =>
  (await s.t.request.get(path).set(s.reader.auth).expect(200)).body;

describe("GET and PUT /v1/orgs/{organizationId}/sites/{siteId}/customization", () => {
  it("gives GitBook's defaults until set, then what was set, with when", async () => {
    const { path } = await siteWithSpaces();
    expect(await read(path("/customization"))).toEqual(DEFAULT_CUSTOMIZATION);

    s.t.clock.advance(1000);
    const put = await s.t.request.put(path("/customization")).set(s.admin.auth).send(branded()).expect(200);
    const expected = { ...branded(), updatedAt: s.t.clock.now().toISOString() };
    expect(put.body).toEqual(expected);
    expect(await read(path("/customization"))).toEqual(expected);
    // GitBook's deprecated `unmasked`: Quire masks nothing, so it reads the same.
    expect(await read(path("/customization?unmasked=true"))).toEqual(expected);

    // A full replacement: what is omitted goes; fields the contract does not name are not kept.
    const { announcement: _gone, ...rest } = branded();
    const extra = { ...rest, styling: { ...rest.styling, depth: "flat" }, pageActions: { items: [] } };
    const replaced = await s.t.request.put(path("/customization")).set(s.admin.auth).send(extra).expect(200);
    expect(replaced.body.announcement).toBeUndefined();
    expect(replaced.body.pageActions).toBeUndefined();
    expect(replaced.body.styling.depth).toBeUndefined();
    expect(await read(path("/customization"))).toEqual(replaced.body);
  });

  it("answers 401, 404 in another organization, 403 but to administrators, 400 on bad input", async () => {
    const { path } = await siteWithSpaces();
    const stranger = await createStrangerSite(s);
    await s.t.request.get(path("/customization")).expect(401);
    await s.t.request.put(path("/customization")).send(branded()).expect(401);
    await s.t.request.get(path("/customization")).set(s.stranger.auth).expect(404);
    await s.t.request.put(path("/customization")).set(s.stranger.auth).send(branded()).expect(404);
    await s.t.request
      .get(sitePath(s.organizationId, stranger.id, "/customization"))
      .set(s.admin.auth)
      .expect(404);
    await s.t.request.get(path("/customization")).set(s.guest.auth).expect(403);
    await s.t.request.put(path("/customization")).set(s.creator.auth).send(branded()).expect(403);

    const bad: Array<[string, unknown]> = [
      [
        "colour",
        { ...branded(), styling: { ...branded().styling, primaryColor: { light: "red", dark: "#000" } } },
      ],
      [
        "injection",
        {
          ...branded(),
          styling: { ...branded().styling, primaryColor: { light: "#000;}body{", dark: "#000" } },
        },
      ],
      [
        "URL",
        { ...branded(), header: { links: [], logo: { light: "not a url", dark: "https://x.test/a" } } },
      ],
      ["length", { ...branded(), announcement: { enabled: true, message: "x".repeat(129), style: "info" } }],
      ["enum", { ...branded(), themes: { default: "sepia", toggeable: true } }],
      ["title", { ...branded(), title: "x" }],
      ["missing part", { ...branded(), styling: undefined }],
    ];
    for (const [what, body] of bad) {
      const res = await s.t.request
        .put(path("/customization"))
        .set(s.admin.auth)
        .send(body as object);
      expect(res.status, what).toBe(400);
    }
    expect(await read(path("/customization"))).toEqual(DEFAULT_CUSTOMIZATION);
  });

  it("goes with its site", async () => {
    const { site, path } = await siteWithSpaces();
    await s.t.request.put(path("/customization")).set(s.admin.auth).send(branded()).expect(200);
    await s.t.request.delete(path()).set(s.admin.auth).expect(204);
    const left = await s.t.db
      .selectFrom("site_customizations")
      .select("site_id")
      .where("site_id", "=", site.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe("/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", () => {
  it("applies the site's settings, then an override field by field; null clears a field, DELETE all", async () => {
    const { path, first, second } = await siteWithSpaces();
    const at = (id: string) => path(`/site-spaces/${id}/customization`);
    expect(await read(at(first))).toEqual(DEFAULT_CUSTOMIZATION);
    const site = (await s.t.request.put(path("/customization")).set(s.admin.auth).send(branded()).expect(200))
      .body as Settings;
    expect(await read(at(first))).toEqual(site);
    expect(await read(`${at(first)}?unmasked=true`)).toEqual(site);

    s.t.clock.advance(1000);
    const patched = await s.t.request
      .patch(at(first))
      .set(s.admin.auth)
      .send({
        title: "Handbook (fr)",
        styling: { primaryColor: { light: "#00ff00", dark: "#00ff00" }, tint: null },
        themes: { toggeable: true },
        internationalization: { locale: "fr" },
        footer: { copyright: null },
      })
      .expect(200);
    // Clearing what is not overridden (the tint, the copyright) leaves the site's value.
    const overridden = {
      ...site,
      title: "Handbook (fr)",
      styling: { ...site.styling, primaryColor: { light: "#00ff00", dark: "#00ff00" } },
      themes: { default: "dark", toggeable: true },
      internationalization: { locale: "fr" },
      updatedAt: s.t.clock.now().toISOString(),
    };
    expect(patched.body).toEqual(overridden);
    expect(await read(at(first))).toEqual(overridden);
    // The other site space, and the site, are as they were.
    expect(await read(at(second))).toEqual(site);
    expect(await read(path("/customization"))).toEqual(site);

    // Null clears an override: the site's value shows again; omitted fields keep theirs.
    const cleared = await s.t.request
      .patch(at(first))
      .set(s.admin.auth)
      .send({ title: null, styling: { primaryColor: null }, announcement: null })
      .expect(200);
    expect(cleared.body).toEqual({
      ...overridden,
      title: site.title,
      styling: site.styling,
      announcement: site.announcement,
    });
    expect(await read(at(first))).toEqual(cleared.body);

    // A later change of the site shows through what is not overridden.
    s.t.clock.advance(1000);
    const changed = (
      await s.t.request
        .put(path("/customization"))
        .set(s.admin.auth)
        .send({ ...branded(), themes: { default: "light", toggeable: false } })
        .expect(200)
    ).body as Settings;
    expect(await read(at(first))).toEqual({
      ...changed,
      themes: { default: "light", toggeable: true },
      internationalization: { locale: "fr" },
    });

    await s.t.request.delete(at(first)).set(s.admin.auth).expect(204);
    expect(await read(at(first))).toEqual(changed);
    // Deleting what is not there is done already.
    await s.t.request.delete(at(first)).set(s.admin.auth).expect(204);
  });

  it("answers 401, 404 (another organization, no such site space), 403 and 400", async () => {
    const { path, first } = await siteWithSpaces();
    const other = await siteWithSpaces();
    const at = (id: string) => path(`/site-spaces/${id}/customization`);
    const body = { title: "Variant" };
    await s.t.request.get(at(first)).expect(401);
    await s.t.request.patch(at(first)).send(body).expect(401);
    await s.t.request.delete(at(first)).expect(401);
    for (const user of [s.stranger, s.outsider]) {
      await s.t.request.get(at(first)).set(user.auth).expect(404);
      await s.t.request.patch(at(first)).set(user.auth).send(body).expect(404);
      await s.t.request.delete(at(first)).set(user.auth).expect(404);
    }
    // A site space of another site, or none at all.
    for (const id of [other.first, "nope"]) {
      await s.t.request.get(at(id)).set(s.admin.auth).expect(404);
      await s.t.request.patch(at(id)).set(s.admin.auth).send(body).expect(404);
      await s.t.request.delete(at(id)).set(s.admin.auth).expect(404);
    }
    await s.t.request.get(at(first)).set(s.guest.auth).expect(403);
    await s.t.request.patch(at(first)).set(s.creator.auth).send(body).expect(403);
    await s.t.request.delete(at(first)).set(s.creator.auth).expect(403);
    for (const bad of [
      { title: "x" },
      { styling: { primaryColor: { light: "#12345", dark: "#000" } } },
      { themes: { default: "sepia" } },
      { header: { logo: { light: "javascript alert", dark: "https://x.test" } } },
      { feedback: {} },
    ])
      await s.t.request.patch(at(first)).set(s.admin.auth).send(bad).expect(400);
    expect(await read(at(first))).toEqual(DEFAULT_CUSTOMIZATION);
  });

  it("goes with its site space", async () => {
    const { path, first } = await siteWithSpaces();
    await s.t.request
      .patch(path(`/site-spaces/${first}/customization`))
      .set(s.admin.auth)
      .send({ title: "Variant" })
      .expect(200);
    await s.t.request
      .delete(path(`/site-spaces/${first}`))
      .set(s.admin.auth)
      .expect(204);
    const left = await s.t.db
      .selectFrom("site_space_customizations")
      .select("site_space_id")
      .where("site_space_id", "=", first)
      .execute();
    expect(left).toEqual([]);
  });
});

describe("GET /v1/orgs/{organizationId}/sites/{siteId}/published", () => {
  it("reports the site's settings and those of each overridden site space", async () => {
    const { path, first, second } = await siteWithSpaces();
    const published = async () =>
      (await s.t.request.get(path("/published")).set(s.reader.auth).expect(200)).body.customizations;
    expect(await published()).toEqual({ site: DEFAULT_CUSTOMIZATION, siteSpaces: {} });
    const site = (await s.t.request.put(path("/customization")).set(s.admin.auth).send(branded()).expect(200))
      .body;
    const variant = (
      await s.t.request
        .patch(path(`/site-spaces/${second}/customization`))
        .set(s.admin.auth)
        .send({ title: "Variant" })
        .expect(200)
    ).body;
    expect(await published()).toEqual({ site, siteSpaces: { [second]: variant } });
    expect(first).not.toBe(second);
  });
});
