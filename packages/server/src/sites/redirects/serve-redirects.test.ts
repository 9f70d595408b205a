import type { Schema } from "@quire/api-types";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
} from "../../change-requests/testing.js";
import { siteVisits } from "../testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { sitePath, siteApi, visit } = siteVisits(() => s);

/** A published site over a space with "Guide" and its child "Install", and ways to add redirects. */
async function publishedSite(settings: Partial<Schema<"UpdateSiteRequest">> = {}) {
  const content = await newSpaceContent(s);
  const { Guide: guideId = "" } = await content.seed([insertPage("Guide", "Read me.")]);
  await content.seed([insertPage("Install", "Run it.", guideId)]);
  const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
    spaces: [content.spaceId],
  });
  if (Object.keys(settings).length > 0) await siteApi("patch", sitePath(site.id), settings);
  await siteApi("post", sitePath(site.id, "/publish"));
  const [siteSpace] = (await siteApi("get", sitePath(site.id, "/site-spaces"))).items;
  const redirect = (body: object): Promise<Schema<"SiteRedirect">> =>
    siteApi("post", sitePath(site.id, "/redirects"), body);
  const toInstall = { kind: "path", spaceId: content.spaceId, path: "guide/install" };
  return { site, siteSpaceId: siteSpace.id as string, redirect, toInstall, at: `/s/${site.id}` };
}

describe("redirects of published sites", () => {
  it("sends a path no page answers to its destination, permanently on a public site", async () => {
    const x = await publishedSite();
    await visit(`${x.at}/old-page/`).expect(404);
    await x.redirect({ source: "/old-page", permanent: true, destination: x.toInstall });
    await x.redirect({
      source: "/moved",
      destination: { kind: "external", url: "https://example.com/docs" },
    });

    const moved = await visit(`${x.at}/old-page/`).expect(308);
    expect(moved.headers.location).toBe(`http://quire.test${x.at}/guide/install/`);
    expect((await visit(new URL(moved.headers.location ?? "").pathname).expect(200)).text).toContain(
      '<h1 id="install">Install</h1>',
    );
    await visit(`${x.at}/old-page`).expect(308);
    await visit(`${x.at}/moved`).expect(307).expect("location", "https://example.com/docs");
    // A page's Markdown is redirected by its own path.
    await visit(`${x.at}/old-page.md`).expect(404);
  });

  it("appends what a wildcard matched when it captures it", async () => {
    const x = await publishedSite();
    await x.redirect({
      source: "/v1/*",
      captureWildcard: true,
      destination: { kind: "site-space", siteSpaceId: x.siteSpaceId },
    });
    await x.redirect({ source: "/legacy*", destination: x.toInstall });

    const moved = await visit(`${x.at}/v1/guide/install/`).expect(307);
    expect(moved.headers.location).toBe(`http://quire.test${x.at}/guide/install`);
    await visit(new URL(moved.headers.location ?? "").pathname).expect(200);
    await visit(`${x.at}/v1/`).expect(307).expect("location", `http://quire.test${x.at}/`);
    await visit(`${x.at}/legacy-docs/a/b.md`)
      .expect(307)
      .expect("location", `http://quire.test${x.at}/guide/install/`);
  });

  it("applies live redirects only, and never where a page answers", async () => {
    const x = await publishedSite();
    await x.redirect({ source: "/drafted", draft: true, destination: x.toInstall });
    await x.redirect({ source: "/guide", destination: { kind: "external", url: "https://example.com/" } });
    await x.redirect({ source: "/guide/*", destination: { kind: "external", url: "https://example.com/" } });
    await visit(`${x.at}/drafted/`).expect(404);
    await visit(`${x.at}/guide/`).expect(200);
    await visit(`${x.at}/guide/install/`).expect(200);
    await visit(`${x.at}/guide/install.md`).expect(200);
    await visit(`${x.at}/guide/missing/`).expect(307).expect("location", "https://example.com/");
  });

  it("keeps a share-link visitor's key, and redirects no one the site does not let in", async () => {
    const x = await publishedSite({ visibility: "share-link" });
    await x.redirect({ source: "/old-page", permanent: true, destination: x.toInstall });
    await x.redirect({ source: "/away", destination: { kind: "external", url: "https://example.com/" } });
    const link = await siteApi("post", sitePath(x.site.id, "/share-links"), { name: "Reviewers" });
    const key = new URL(link.urls.published).searchParams.get("share") ?? "";

    await visit(`${x.at}/old-page/`).expect(404);
    const moved = await visit(`${x.at}/old-page/?share=${key}`).expect(307);
    expect(moved.headers.location).toBe(`http://quire.test${x.at}/guide/install/?share=${key}`);
    await visit(
      new URL(moved.headers.location ?? "").pathname + new URL(moved.headers.location ?? "").search,
    ).expect(200);
    // The key stays on the site.
    await visit(`${x.at}/away?share=${key}`).expect(307).expect("location", "https://example.com/");
  });

  it("asks a visitor-auth site's visitors to sign in before any redirect", async () => {
    const x = await publishedSite({ visibility: "visitor-auth" });
    await x.redirect({ source: "/old-page", permanent: true, destination: x.toInstall });
    await visit(`${x.at}/old-page/`).expect(401);
    await siteApi("patch", sitePath(x.site.id, "/publishing/auth"), {
      backend: "custom",
      fallbackURL: "https://login.example.com/",
    });
    await visit(`${x.at}/old-page/`).expect(302).expect("location", "https://login.example.com/");

    const { privateKey } = await siteApi("get", sitePath(x.site.id, "/publishing/auth"));
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor(s.t.clock.now().getTime() / 1000) + 3600)
      .sign(new TextEncoder().encode(privateKey));
    await visit(`${x.at}/old-page/?jwt_token=${token}`)
      .expect(307)
      .expect("location", `http://quire.test${x.at}/guide/install/`);
  });

  it("serves redirects at a site's proxy host, to the proxy's URLs", async () => {
    await publishedSite({ proxy: "docs.example.com/handbook" }).then((x) =>
      x.redirect({ source: "/old-page", permanent: true, destination: x.toInstall }),
    );
    await visit("/handbook/old-page")
      .set("Host", "docs.example.com")
      .expect(308)
      .expect("location", "https://docs.example.com/handbook/guide/install/");
  });
});
