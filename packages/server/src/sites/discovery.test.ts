import type { Schema } from "@quire/api-types";
import type { Element } from "hast";
import { SignJWT } from "jose";
import rehypeParse from "rehype-parse";
import { unified } from "unified";
import { visit as visitTree } from "unist-util-visit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  insertPage,
  newSpaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { STYLESHEET } from "./assets.js";
import { LLMS_FULL_MAX_BYTES, llmsFullText, markdownUrl, sitemapXml } from "./discovery.js";
import { siteVisits } from "./testing.js";

let s: ContentScenario;
beforeAll(async () => {
  s = await createContentScenario();
});
afterAll(() => s.t.close());
const { sitePath, siteApi, visit } = siteVisits(() => s);

/** The page tree given (title, body, children), as a space's main content. */
interface PageSpec {
  title: string;
  markdown?: string;
  children?: PageSpec[];
}

async function spaceWith(title: string, pages: PageSpec[]): Promise<string> {
  const content = await newSpaceContent(s);
  await siteApi("patch", `/v1/spaces/${content.spaceId}`, { title });
  const cr = await content.createChangeRequest();
  const insert = async (specs: PageSpec[], parent?: string) => {
    await content.edit(
      cr.number,
      specs.map((spec) => insertPage(spec.title, spec.markdown ?? "", parent)),
    );
    const all = await content.pages(cr.number);
    const siblings = parent === undefined ? all : (findPage(all, parent)?.pages ?? []);
    for (const spec of specs) {
      const id = siblings.find((page) => page.title === spec.title)?.id;
      if (spec.children && id) await insert(spec.children, id);
    }
  };
  await insert(pages);
  await content.merge(cr.number);
  return content.spaceId;
}

type Page = Schema<"RevisionPage">;
const findPage = (pages: readonly Page[], id: string): Page | undefined => {
  for (const page of pages) {
    if (page.id === id) return page;
    const found = findPage(page.pages ?? [], id);
    if (found) return found;
  }
  return undefined;
};

const INSTALL_DESCRIPTION = 'How to install "quire" & <friends>';
const INSTALL_BODY = `---\ndescription: '${INSTALL_DESCRIPTION}'\n---\n\nRun \`quire\`.\n`;

/**
 * A published site titled "Docs" over two sections: the default one holding two site spaces
 * ("Handbook", default, with Guide › Install and a page its front matter hides; "Handbook v2" with
 * Intro), and "API" (Reference › Endpoints); and a third section shown only to "pro" visitors.
 */
async function twoSectionSite(settings: Partial<Schema<"UpdateSiteRequest">> = {}) {
  const handbook = await spaceWith("Handbook", [
    {
      title: "Guide",
      markdown: "Welcome.",
      children: [{ title: "Install", markdown: INSTALL_BODY }],
    },
    { title: "Secret", markdown: "---\nhidden: true\n---\n\nNot listed." },
  ]);
  const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
    title: "Docs",
    spaces: [handbook],
  });
  await siteApi("patch", sitePath(site.id), { adaptiveContent: { enabled: true }, ...settings });
  const api = await siteApi("post", sitePath(site.id, "/sections"), {
    spaceId: await spaceWith("API space", [
      { title: "Reference", children: [{ title: "Endpoints", markdown: "GET /things" }] },
    ]),
    title: "API",
  });
  const v2 = await siteApi("post", sitePath(site.id, "/site-spaces"), {
    spaceId: await spaceWith("Handbook v2", [{ title: "Intro", markdown: "Hello." }]),
  });
  const pro = await siteApi("post", sitePath(site.id, "/sections"), {
    spaceId: await spaceWith("Pro space", [{ title: "Pro stuff", markdown: "For pros." }]),
    title: "Pro",
  });
  await siteApi("patch", sitePath(site.id, `/sections/${pro.id}`), {
    condition: "visitor.claims.plan == 'pro'",
  });
  await siteApi("post", sitePath(site.id, "/publish"));
  const root = `http://quire.test/s/${site.id}/`;
  return {
    site,
    root,
    /** The canonical URLs of the pages anyone sees, in order; the hidden page is left out. */
    visibleUrls: [
      `${root}guide/`,
      `${root}guide/install/`,
      `${root}${v2.path}/intro/`,
      `${root}${api.path}/reference/`,
      `${root}${api.path}/reference/endpoints/`,
    ],
    proPath: pro.path as string,
  };
}

/** A published site of one space (Guide › Install) with the settings given. */
async function smallSite(settings: Partial<Schema<"UpdateSiteRequest">>) {
  const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
    title: "Small",
    spaces: [
      await spaceWith("Small space", [
        { title: "Guide", children: [{ title: "Install", markdown: INSTALL_BODY }] },
      ]),
    ],
  });
  await siteApi("patch", sitePath(site.id), settings);
  await siteApi("post", sitePath(site.id, "/publish"));
  return site;
}

/** The `<head>` of an HTML page as hast. */
function headOf(html: string): Element {
  const tree = unified().use(rehypeParse).parse(html);
  let head: Element | undefined;
  visitTree(tree, "element", (node: Element) => {
    if (node.tagName === "head") head = node;
  });
  if (!head) throw new Error("no <head>");
  return head;
}

/** The `<meta>` and `<link>` of a head, as `name`/`property`/`rel` → content/href (each must be one). */
function headTags(head: Element): Record<string, string> {
  const tags: Record<string, string> = {};
  const put = (key: string, value: unknown) => {
    expect(tags[key], `${key} appears once`).toBeUndefined();
    tags[key] = String(value);
  };
  for (const node of head.children) {
    if (node.type !== "element") continue;
    const { name, property, rel, content, href } = node.properties;
    if (node.tagName === "meta" && (name ?? property) !== undefined) put(String(name ?? property), content);
    if (node.tagName === "link") put(`link:${[rel].flat().join(" ")}`, href);
    if (node.tagName === "title")
      put("title", node.children.map((child) => (child.type === "text" ? child.value : "")).join(""));
  }
  return tags;
}

/** The `<loc>` values of a sitemap, XML entities decoded. */
const sitemapLocs = (xml: string) =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) =>
    (m[1] as string)
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&apos;", "'")
      .replaceAll("&amp;", "&"),
  );

describe("a published site's discoverability", () => {
  it("tells crawlers of a public site to come in and lists exactly the pages anyone sees in its sitemap", async () => {
    const { site, root, visibleUrls, proPath } = await twoSectionSite();

    const robots = await visit(`/s/${site.id}/robots.txt`)
      .expect(200)
      .expect("content-type", /^text\/plain/);
    expect(robots.text).toBe(`User-agent: *\nAllow: /\nSitemap: ${root}sitemap.xml\n`);

    const sitemap = await visit(`/s/${site.id}/sitemap.xml`)
      .expect(200)
      .expect("content-type", /^application\/xml/);
    expect(sitemap.text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    expect(sitemapLocs(sitemap.text)).toEqual(visibleUrls);
    // As paths: a site's random id may hold "pro" (it did: 0mx5prof…).
    expect(sitemap.text).not.toContain(`/${proPath}/`);
    expect(sitemap.text).not.toContain("/secret/");
    // Every URL listed is a page that is served.
    for (const url of visibleUrls) await visit(new URL(url).pathname).expect(200);
  });

  it("escapes a sitemap's URLs as XML", () => {
    expect(sitemapXml(["https://x.test/a?b=1&c=<2>"])).toContain(
      "<loc>https://x.test/a?b=1&amp;c=&lt;2&gt;</loc>",
    );
  });

  it("gives each page a description, canonical URL and Open Graph tags in its head", async () => {
    const { site, root } = await twoSectionSite();
    const html = (await visit(`/s/${site.id}/guide/install/`).expect(200)).text;
    const tags = headTags(headOf(html));
    expect(tags).toEqual({
      viewport: "width=device-width, initial-scale=1",
      title: "Install | Docs",
      description: INSTALL_DESCRIPTION,
      "link:canonical": `${root}guide/install/`,
      "link:stylesheet": `/s/${site.id}/${STYLESHEET.name}`,
      "og:type": "website",
      "og:site_name": "Docs",
      "og:title": "Install",
      "og:description": INSTALL_DESCRIPTION,
      "og:url": `${root}guide/install/`,
    });
    // The site space's root shows its first page, known by that page's own URL; no description, no tag.
    const home = headTags(headOf((await visit(`/s/${site.id}/`).expect(200)).text));
    expect(home["link:canonical"]).toBe(`${root}guide/`);
    expect(home["og:url"]).toBe(`${root}guide/`);
    expect(home.description).toBeUndefined();
    expect(home["og:description"]).toBeUndefined();
  });

  it("serves each page's stored Markdown at its URL with .md appended", async () => {
    const { site, visibleUrls } = await twoSectionSite();
    const install = await visit(`/s/${site.id}/guide/install.md`)
      .expect(200)
      .expect("content-type", "text/markdown; charset=utf-8");
    expect(install.text).toBe(INSTALL_BODY);
    for (const url of visibleUrls) await visit(new URL(markdownUrl(url)).pathname).expect(200);
    await visit(`/s/${site.id}/guide/nowhere.md`).expect(404);
    await visit(`/s/${site.id}/nowhere.md`).expect(404);
    // A site space's root names no page of its own.
    const [, v2Path] = /\/s\/[^/]+\/([^/]+)\/intro\/$/.exec(visibleUrls[2] as string) ?? [];
    await visit(`/s/${site.id}/${v2Path}.md`).expect(404);
  });

  it("lists each page with its Markdown URL and description in llms.txt, and their bodies in llms-full.txt", async () => {
    const { site, root, visibleUrls } = await twoSectionSite();
    const llms = await visit(`/s/${site.id}/llms.txt`)
      .expect(200)
      .expect("content-type", /^text\/plain/);
    const [v2Path, apiPath] = [visibleUrls[2], visibleUrls[3]].map(
      (url) => (url as string).slice(root.length).split("/")[0],
    );
    expect(llms.text).toBe(
      [
        "# Docs",
        "",
        "## Docs / Handbook",
        "",
        `- [Guide](${root}guide.md)`,
        `- [Install](${root}guide/install.md): ${INSTALL_DESCRIPTION}`,
        "",
        "## Docs / Handbook v2",
        "",
        `- [Intro](${root}${v2Path}/intro.md)`,
        "",
        "## API",
        "",
        `- [Reference](${root}${apiPath}/reference.md)`,
        `- [Endpoints](${root}${apiPath}/reference/endpoints.md)`,
        "",
      ].join("\n"),
    );

    const full = await visit(`/s/${site.id}/llms-full.txt`).expect(200);
    expect(full.text).toContain(`# Install\n\nSource: ${root}guide/install.md\n\n${INSTALL_BODY}`);
    expect(full.text).toContain(
      `# Endpoints\n\nSource: ${root}${apiPath}/reference/endpoints.md\n\nGET /things\n`,
    );
    expect(full.text).not.toContain("Not listed.");
    expect(full.text).not.toContain("For pros.");
  });

  it("cuts llms-full.txt at its bound and says so", () => {
    const page = (n: number) => ({
      title: `Page ${n}`,
      url: `https://x.test/p${n}/`,
      markdownUrl: `https://x.test/p${n}.md`,
      markdown: "x".repeat(1000),
    });
    const text = llmsFullText(
      "Big",
      [{ heading: "All", pages: Array.from({ length: 10 }, (_, n) => page(n)) }],
      3500,
    );
    expect(Buffer.byteLength(text)).toBeLessThan(3500 + 200);
    expect(text).toContain("# Page 2\n");
    expect(text).not.toContain("# Page 3\n");
    expect(text).toContain("This file was cut at 3500 bytes");
    expect(LLMS_FULL_MAX_BYTES).toBeGreaterThanOrEqual(1024 * 1024);
  });

  it("follows a page's front matter (meta links in its head, noRobotsIndex out of the sitemap) and its space's language", async () => {
    const content = await newSpaceContent(s);
    const ids = await content.seed([
      insertPage("Other", "Elsewhere."),
      insertPage("Quiet", "---\nnoRobotsIndex: true\n---\n\nShh."),
      insertPage("Guide", "Read me."),
    ]);
    const cr = await content.createChangeRequest();
    const linked = [
      "---",
      "canonical: https://docs.example.com/guide",
      "alternates:",
      "  - https://fr.example.com/guide",
      `  - page: ${ids.Other}`,
      "---",
      "",
      "Read me.",
    ].join("\n");
    await content.edit(cr.number, [updatePage(ids.Guide as string, { markdown: linked })]);
    await content.merge(cr.number);
    await siteApi("patch", `/v1/spaces/${content.spaceId}`, { language: "fr" });
    const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${s.organizationId}/sites`, {
      title: "Meta",
      spaces: [content.spaceId],
    });
    await siteApi("patch", sitePath(site.id), { visibility: "public" });
    await siteApi("post", sitePath(site.id, "/publish"));
    const root = `http://quire.test/s/${site.id}/`;

    const guideHtml = (await visit(`/s/${site.id}/guide/`).expect(200)).text;
    // The space's language is the pages'.
    expect(guideHtml).toContain('<html lang="fr">');
    const guide = headOf(guideHtml);
    const links: Record<string, string[]> = {};
    let robots: unknown;
    visitTree(guide, "element", (node: Element) => {
      if (node.tagName === "link") {
        const rel = String(node.properties.rel);
        links[rel] = [...(links[rel] ?? []), String(node.properties.href)];
      }
      if (node.tagName === "meta" && node.properties.name === "robots") robots = node.properties.content;
    });
    expect(links.canonical).toEqual(["https://docs.example.com/guide"]);
    expect(links.alternate).toEqual(["https://fr.example.com/guide", `${root}other/`]);
    expect(robots).toBeUndefined();
    expect(headTags(headOf((await visit(`/s/${site.id}/quiet/`).expect(200)).text)).robots).toBe("noindex");
    const sitemap = (await visit(`/s/${site.id}/sitemap.xml`).expect(200)).text;
    expect(sitemapLocs(sitemap)).toEqual([`${root}other/`, `${root}guide/`]);
  });

  it("keeps crawlers out of an unlisted site, which has no sitemap, and serves it to anyone", async () => {
    const site = await smallSite({ visibility: "unlisted" });
    expect((await visit(`/s/${site.id}/robots.txt`).expect(200)).text).toBe("User-agent: *\nDisallow: /\n");
    await visit(`/s/${site.id}/sitemap.xml`).expect(404);
    expect((await visit(`/s/${site.id}/guide/install.md`).expect(200)).text).toBe(INSTALL_BODY);
    expect((await visit(`/s/${site.id}/llms.txt`).expect(200)).text).toContain("- [Install](");
  });

  it("serves a share-link site's Markdown and llms.txt only with a key, and keeps crawlers out", async () => {
    const site = await smallSite({ visibility: "share-link" });
    const link = await siteApi("post", sitePath(site.id, "/share-links"), { name: "Reviewers" });
    const key = new URL(link.urls.published).searchParams.get("share") ?? "";

    expect((await visit(`/s/${site.id}/robots.txt`).expect(200)).text).toBe("User-agent: *\nDisallow: /\n");
    await visit(`/s/${site.id}/sitemap.xml?share=${key}`).expect(404);
    await visit(`/s/${site.id}/guide/install.md`).expect(404);
    await visit(`/s/${site.id}/guide/install.md?share=not-a-key`).expect(404);
    expect((await visit(`/s/${site.id}/guide/install.md?share=${key}`).expect(200)).text).toBe(INSTALL_BODY);
    await visit(`/s/${site.id}/llms.txt`).expect(404);
    // Its links carry the key, to be followed; the page's canonical URL does not.
    const llms = (await visit(`/s/${site.id}/llms.txt?share=${key}`).expect(200)).text;
    expect(llms).toContain(`- [Install](http://quire.test/s/${site.id}/guide/install.md?share=${key})`);
    const html = (await visit(`/s/${site.id}/guide/install/?share=${key}`).expect(200)).text;
    expect(headTags(headOf(html))["link:canonical"]).toBe(`http://quire.test/s/${site.id}/guide/install/`);
    expect(headTags(headOf(html)).robots).toBe("noindex");
  });

  it("asks for sign-in on a visitor-auth site's llms.txt and Markdown without a token", async () => {
    const site = await smallSite({ visibility: "visitor-auth" });
    await visit(`/s/${site.id}/llms.txt`).expect(401);
    await visit(`/s/${site.id}/llms-full.txt`).expect(401);
    await visit(`/s/${site.id}/guide/install.md`).expect(401);
    expect((await visit(`/s/${site.id}/robots.txt`).expect(200)).text).toBe("User-agent: *\nDisallow: /\n");
    await visit(`/s/${site.id}/sitemap.xml`).expect(404);

    const { privateKey } = await siteApi("get", sitePath(site.id, "/publishing/auth"));
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor(s.t.clock.now().getTime() / 1000) + 3600)
      .sign(new TextEncoder().encode(privateKey));
    expect((await visit(`/s/${site.id}/llms.txt?jwt_token=${token}`).expect(200)).text).toContain(
      "- [Install](",
    );
    expect((await visit(`/s/${site.id}/guide/install.md?jwt_token=${token}`).expect(200)).text).toBe(
      INSTALL_BODY,
    );
  });

  it("serves the same files at a proxy origin's root, with its URLs", async () => {
    const site = await smallSite({ proxy: "docs.example.com/small" });
    const robots = await visit("/small/robots.txt").set("Host", "docs.example.com").expect(200);
    expect(robots.text).toBe(
      "User-agent: *\nAllow: /\nSitemap: https://docs.example.com/small/sitemap.xml\n",
    );
    const sitemap = await visit("/small/sitemap.xml").set("Host", "docs.example.com").expect(200);
    expect(sitemapLocs(sitemap.text)).toEqual([
      "https://docs.example.com/small/guide/",
      "https://docs.example.com/small/guide/install/",
    ]);
    const md = await visit("/small/guide/install.md").set("Host", "docs.example.com").expect(200);
    expect(md.text).toBe(INSTALL_BODY);
    const html = (await visit("/small/guide/install/").set("Host", "docs.example.com").expect(200)).text;
    expect(headTags(headOf(html))["link:canonical"]).toBe("https://docs.example.com/small/guide/install/");
    await visit(`/s/${site.id}/robots.txt`).expect(200);
  });
});
