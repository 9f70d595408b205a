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
    preset: "default",
    logo: { light: "https://example.com/light.png", dark: "https://example.com/dark.png" },
    links: [{ title: "Blog", to: { kind: "url", url: "https://example.com/blog" }, links: [] }],
  },
  footer: { groups: [{ title: "More", links: [] }], copyright: "© Example" },
  announcement: { enabled: true, message: "Hello", style: "warning" },
  themes: { default: "dark", toggeable: false },
});

/** Translations, typed as the contract's (openapi-typescript types no record's values). */
const translations = (text: Record<string, string>) => text as Record<string, never>;

/** Every field of GitBook's customization that Quire takes, set otherwise than by default. */
const everything = (): Schema<"SiteCustomizationSettingsInput"> => ({
  ...branded(),
  localizedTitle: translations({ fr: "Manuel", "pt-br": "Manual" }),
  styling: {
    ...branded().styling,
    depth: "flat",
    font: "Lato",
    headingFont: "Merriweather",
    monospaceFont: "JetBrainsMono",
    background: "match",
    codeTheme: {
      default: { light: "github-light-default", dark: "github-dark-default" },
      openapi: { light: "default-light", dark: "github-dark-default" },
    },
  },
  favicon: { emoji: "1f389" },
  header: {
    preset: "custom",
    backgroundColor: { light: "#101010", dark: "#202020" },
    linkColor: { light: "#fafafa", dark: "#eeeeee" },
    primaryLink: { kind: "url", url: "https://example.com/start" },
    links: [
      {
        title: "Blog",
        localizedTitle: translations({ fr: "Journal" }),
        to: { kind: "url", url: "https://example.com/blog" },
        links: [
          {
            title: "Tags",
            localizedTitle: translations({ de: "Schlagwörter" }),
            to: { kind: "tag", tag: "news" },
          },
        ],
        condition: "",
      },
    ],
  },
  footer: {
    groups: [
      {
        title: "More",
        localizedTitle: translations({ fr: "Plus" }),
        links: [
          {
            title: "Home",
            localizedTitle: translations({ fr: "Accueil" }),
            to: { kind: "url", url: "https://x.test" },
          },
        ],
      },
    ],
  },
  announcement: {
    enabled: true,
    message: "Hello",
    localizedMessage: translations({ fr: "Bonjour" }),
    style: "info",
  },
  ai: {
    mode: "none",
    greeting: "Hi",
    localizedGreeting: translations({ fr: "Salut" }),
    suggestions: ["How to start?"],
    instructions: "Be brief.",
    pageLinkSummaries: { enabled: true },
  },
  externalLinks: { target: "blank" },
  pagination: { enabled: false },
  pageActions: { items: [] },
  trademark: { enabled: false },
  privacyPolicy: { url: "https://example.com/privacy" },
  socialPreview: { url: "https://example.com/preview.png" },
  socialAccounts: [
    { platform: "github", handle: "acme", display: { footer: true, header: false } },
    { platform: "mastodon", handle: "acme@social.test", display: { footer: false, header: true } },
  ],
  insights: { trackingCookie: false },
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
    const extra = { ...rest, unheardOf: true };
    const replaced = await s.t.request.put(path("/customization")).set(s.admin.auth).send(extra).expect(200);
    expect(replaced.body.announcement).toBeUndefined();
    expect(replaced.body.unheardOf).toBeUndefined();
    expect(await read(path("/customization"))).toEqual(replaced.body);
  });

  it("answers GitBook's required fields on a fresh site, and its defaults for those an old client omits", async () => {
    const { path } = await siteWithSpaces();
    const fresh = await read(path("/customization"));
    expect(fresh).toMatchObject({
      styling: {
        depth: "subtle",
        monospaceFont: "IBMPlexMono",
        background: "plain",
        codeTheme: {
          default: { light: "default-light", dark: "default-dark" },
          openapi: { light: "default-light", dark: "default-dark" },
        },
      },
      header: { preset: "default" },
      ai: { mode: "none" },
      externalLinks: { target: "self" },
      pagination: { enabled: true },
      pageActions: { items: ["markdown"] },
      trademark: { enabled: true },
      privacyPolicy: {},
      socialPreview: {},
      socialAccounts: [],
      insights: { trackingCookie: false },
    });

    // A client that knows none of the new fields (nor `header.preset`) gets their defaults.
    const { preset: _preset, ...header } = branded().header;
    const old = { ...branded(), header };
    for (const field of ["ai", "externalLinks", "pagination", "pageActions", "trademark"] as const)
      delete old[field];
    const put = await s.t.request.put(path("/customization")).set(s.admin.auth).send(old).expect(200);
    const { updatedAt: _at, ...settings } = put.body as Settings;
    expect(settings).toEqual({ ...fresh, ...branded() });
  });

  it("stores every field of GitBook's it honours, and takes back what it answers", async () => {
    const { path } = await siteWithSpaces();
    // A fresh site's answer goes back unchanged.
    await s.t.request
      .put(path("/customization"))
      .set(s.admin.auth)
      .send(await read(path("/customization")))
      .expect(200);

    const put = await s.t.request
      .put(path("/customization"))
      .set(s.admin.auth)
      .send(everything())
      .expect(200);
    // An empty condition is no condition, and is not kept.
    const { condition: _none, ...blog } = everything().header.links[0] ?? { title: "", links: [], to: null };
    const expected = {
      ...everything(),
      header: { ...everything().header, links: [blog] },
      updatedAt: s.t.clock.now().toISOString(),
    };
    expect(put.body).toEqual(expected);
    expect(await read(path("/customization"))).toEqual(expected);

    // What a GET answers, `updatedAt` and all, a PUT takes back as it is.
    s.t.clock.advance(1000);
    const again = await s.t.request.put(path("/customization")).set(s.admin.auth).send(put.body).expect(200);
    expect(again.body).toEqual({ ...expected, updatedAt: s.t.clock.now().toISOString() });
  });

  it("reads settings stored before a field existed with that field's default", async () => {
    const { site, path } = await siteWithSpaces();
    await s.t.request.put(path("/customization")).set(s.admin.auth).send(branded()).expect(200);
    const { preset: _preset, ...header } = branded().header;
    const stored = { ...branded(), header, pdf: { enabled: false } };
    await s.t.db
      .updateTable("site_customizations")
      .set({ settings: JSON.stringify(stored) as never })
      .where("site_id", "=", site.id)
      .execute();
    const settings = await read(path("/customization"));
    expect(settings).toMatchObject({ header: { preset: "default" }, pagination: { enabled: true } });
    expect(settings.styling.codeTheme).toEqual(DEFAULT_CUSTOMIZATION.styling.codeTheme);
  });

  it("refuses with 400, naming the field, what it cannot honour, and changes nothing", async () => {
    const { path } = await siteWithSpaces();
    const site = (await s.t.request.put(path("/customization")).set(s.admin.auth).send(branded()).expect(200))
      .body as Settings;
    const customFont = {
      id: "f1",
      custom: true,
      fontFamily: "Brand",
      fontFaces: [{ weight: 400, sources: [{ url: "https://example.com/brand.woff2", format: "woff2" }] }],
    };
    const styled = (styling: object) => ({ ...branded(), styling: { ...branded().styling, ...styling } });
    const linked = (link: object) => ({
      ...branded(),
      header: { links: [{ title: "Blog", to: null, links: [], ...link }] },
    });
    const refused: Array<[string, object]> = [
      ["ai.mode", { ...branded(), ai: { mode: "assistant" } }],
      ["pageActions.items", { ...branded(), pageActions: { items: ["markdown", "mcp"] } }],
      ["insights.trackingCookie", { ...branded(), insights: { trackingCookie: true } }],
      [
        "styling.codeTheme.default.dark",
        styled({
          codeTheme: {
            ...DEFAULT_CUSTOMIZATION.styling.codeTheme,
            default: { light: "default-light", dark: "dracula" },
          },
        }),
      ],
      ["styling.font", styled({ font: customFont })],
      ["styling.monospaceFont", styled({ monospaceFont: customFont })],
      ["styling.headingFont", styled({ headingFont: customFont })],
      ["header.links[0].condition", linked({ condition: "visitor.claims.beta == true" })],
      ["header.links[0].localizedTitle", linked({ localizedTitle: translations({ klingon: "x" }) })],
      ["favicon.emoji", { ...branded(), favicon: { emoji: "<svg>" } }],
      [
        "favicon",
        {
          ...branded(),
          favicon: { emoji: "🎉", icon: { light: "https://x.test/a", dark: "https://x.test/b" } },
        },
      ],
      [
        "announcement.localizedMessage",
        {
          ...branded(),
          announcement: {
            enabled: true,
            message: "Hi",
            localizedMessage: translations({ xx: "Yo" }),
            style: "info",
          },
        },
      ],
    ];
    for (const [field, body] of refused) {
      const res = await s.t.request.put(path("/customization")).set(s.admin.auth).send(body).expect(400);
      expect(JSON.stringify(res.body), field).toContain(`${field}:`);
    }
    expect(await read(path("/customization"))).toEqual(site);
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

  it("overrides GitBook's newer fields too, null clearing each", async () => {
    const { path, first } = await siteWithSpaces();
    const at = path(`/site-spaces/${first}/customization`);
    const site = (
      await s.t.request.put(path("/customization")).set(s.admin.auth).send(everything()).expect(200)
    ).body as Settings;
    const patch = {
      localizedTitle: translations({ de: "Handbuch" }),
      styling: {
        depth: "subtle",
        background: "plain",
        codeTheme: { default: { light: "default-light", dark: "default-dark" } },
      },
      header: {
        preset: "bold",
        primaryLink: { kind: "page", page: "p1" },
        backgroundColor: { light: "#000000", dark: "#000000" },
        linkColor: { light: "#ffffff", dark: "#ffffff" },
      },
      externalLinks: { target: "self" },
      pagination: { enabled: true },
      trademark: { enabled: true },
      privacyPolicy: { url: "https://example.com/privacy-de" },
      socialPreview: { url: "https://example.com/de.png" },
    } as const;
    const overridden = (await s.t.request.patch(at).set(s.admin.auth).send(patch).expect(200))
      .body as Settings;
    expect(overridden).toEqual({
      ...site,
      localizedTitle: patch.localizedTitle,
      styling: {
        ...site.styling,
        depth: "subtle",
        background: "plain",
        codeTheme: { ...site.styling.codeTheme, default: patch.styling.codeTheme.default },
      },
      header: { ...site.header, ...patch.header },
      externalLinks: patch.externalLinks,
      pagination: patch.pagination,
      trademark: patch.trademark,
      privacyPolicy: patch.privacyPolicy,
      socialPreview: patch.socialPreview,
      updatedAt: overridden.updatedAt,
    });
    expect(await read(at)).toEqual(overridden);

    // Refused as in a replacement, changing nothing.
    for (const bad of [
      { styling: { codeTheme: { openapi: { light: "nord", dark: "default-dark" } } } },
      { header: { links: [{ title: "Beta", to: null, links: [], condition: "visitor.claims.beta" }] } },
      { favicon: { emoji: "abc" } },
    ])
      await s.t.request.patch(at).set(s.admin.auth).send(bad).expect(400);
    expect(await read(at)).toEqual(overridden);

    const cleared = await s.t.request
      .patch(at)
      .set(s.admin.auth)
      .send({
        localizedTitle: null,
        styling: { depth: null, background: null, codeTheme: { default: null } },
        header: { preset: null, primaryLink: null, backgroundColor: null, linkColor: null },
        externalLinks: { target: null },
        pagination: { enabled: null },
        trademark: { enabled: null },
        privacyPolicy: { url: null },
        socialPreview: { url: null },
      })
      .expect(200);
    expect(cleared.body).toEqual({ ...site, updatedAt: cleared.body.updatedAt });
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
