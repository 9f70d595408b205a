import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
} from "../change-requests/testing.js";
import { pngOf } from "../files/testing.js";
import { siteVisits } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { visit, publishedSite } = siteVisits(() => s);

/** Every `attribute` of `element` tags in the HTML, as written (entities decoded). */
const attributes = (html: string, element: string, attribute: string) =>
  [...html.matchAll(new RegExp(`<${element}\\b[^>]*\\s${attribute}="([^"]*)"`, "g"))].map((match) =>
    (match[1] as string).replaceAll("&#x26;", "&").replaceAll("&amp;", "&"),
  );

describe("links, anchors and images of a published page", () => {
  it("lead to the site's pages, to anchors that exist, and to images that load: none is dead", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const upload = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/files`)
      .set(s.admin.auth)
      .attach("file", pngOf(2, 2), { filename: "logo.png", contentType: "image/png" })
      .expect(201);
    await space.edit(cr.number, [
      insertPage(
        "Guide",
        [
          "See [the install step](./guide/install.md#step-2), [the FAQ](faq.md), [a custom anchor](/pages/guide/install#custom),",
          "[an anchor that is not there](faq.md#nowhere), [a page that is not there](./missing.md) and [below](#usage).",
          "",
          `![Logo](/files/${upload.body.id}) ![Gone](/files/no-such-file)`,
          "",
          "## Usage",
          "",
          "[External](https://example.com/docs)",
        ].join("\n"),
      ),
      insertPage("FAQ", "## Why?\n\nBecause."),
    ]);
    const guide = (await space.pages(cr.number)).find((page) => page.title === "Guide");
    await space.edit(cr.number, [
      insertPage("Install", '## Step 2\n\nRun it.\n\n<a id="custom"></a>Here.', guide?.id),
    ]);
    await space.merge(cr.number);
    const api = (method: "post", path: string, body?: object) =>
      s.t.request[method](`/v1/orgs/${s.organizationId}/sites${path}`).set(s.admin.auth).send(body);
    const site = (await api("post", "", { title: "Handbook", spaces: [space.spaceId] }).expect(201)).body;
    await api("post", `/${site.id}/publish`).expect(200);

    const html = (await visit(`/s/${site.id}/`).expect(200)).text;
    const main = /<main>(.*)<\/main>/s.exec(html)?.[1] ?? "";
    const hrefs = attributes(main, "a", "href");
    expect(hrefs).toEqual([
      `/s/${site.id}/guide/install/#step-2`,
      `/s/${site.id}/faq/`,
      `/s/${site.id}/guide/install/#custom`,
      `/s/${site.id}/faq/`,
      "#usage",
      // The heading's own permalink.
      "#usage",
      "https://example.com/docs",
    ]);
    // The missing page's link and the missing file's image are taken away; their text stays.
    expect(main).toContain("a page that is not there");
    expect(main).toContain("Gone");
    expect(main).toContain(
      '<h2 id="usage">Usage<a href="#usage" class="permalink" aria-label="Link to this section">#</a></h2>',
    );

    for (const href of hrefs.filter((href) => href.startsWith("/"))) {
      const [path, fragment] = href.split("#") as [string, string | undefined];
      const target = (await visit(path).expect(200)).text;
      if (fragment) expect(target, href).toMatch(new RegExp(`id="${fragment}"`));
    }
    const images = attributes(main, "img", "src");
    expect(images).toHaveLength(1);
    const image = await visit(new URL(images[0] as string).pathname).expect(200);
    expect(image.headers["content-type"]).toBe("image/png");
  });

  it("lead to pages by their path from the site's root, and to the anchor of a title its heading gave", async () => {
    const { site } = await publishedSite([
      insertPage(
        "Overview",
        "[Its parser](/content-type-parser#handler), [the guide](/the-hitchhiker-s-guide-to-plugins#the-hitchhikers-guide-to-plugins), [the API](/docs).",
      ),
      insertPage("The Hitchhiker's Guide to Plugins", "Plugins extend it."),
      insertPage("`Content-Type` Parser", "## Handler\n\nParses bodies."),
    ]);
    const root = `/s/${site.id}`;
    const overview = (await visit(`${root}/`).expect(200)).text;
    const main = /<main.*<\/main>/s.exec(overview)?.[0] ?? "";
    expect(attributes(main, "a", "href")).toEqual([
      `${root}/content-type-parser/#handler`,
      `${root}/the-hitchhiker-s-guide-to-plugins/#the-hitchhikers-guide-to-plugins`,
      // A path of the server's own, no page of the site, stays as written.
      "/docs",
    ]);
    const guide = (await visit(`${root}/the-hitchhiker-s-guide-to-plugins/`).expect(200)).text;
    expect(guide).toContain(
      '<h1 id="the-hitchhikers-guide-to-plugins">The Hitchhiker\'s Guide to Plugins</h1>',
    );
    // A title's code spans show as code, in the navigation and its heading; plain in the window's title.
    const parser = (await visit(`${root}/content-type-parser/`).expect(200)).text;
    expect(parser).toContain("<title>Content-Type Parser | ");
    expect(parser).toContain('<h1 id="content-type-parser"><code>Content-Type</code> Parser</h1>');
    expect(overview).toContain(`<a href="${root}/content-type-parser/"><code>Content-Type</code> Parser</a>`);
    expect(overview).not.toContain("`");
  });
});
