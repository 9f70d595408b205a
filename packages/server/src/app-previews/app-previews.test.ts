import type { Schema } from "@quire/api-types";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ContentScenario,
  createContentScenario,
  flatten,
  insertPage,
  spaceContent,
  updatePage,
} from "../change-requests/testing.js";
import { CONTENT_SECURITY_POLICY } from "../sites/index.js";
import type { TestUser } from "../testing/harness.js";
import { APP_CONTENT_SECURITY_POLICY } from "./spa.js";

let s: ContentScenario;
/** Each resource's `urls.app` that a preview shows, as the API answered it, with what it must show. */
const links: Record<string, { url: string; shows: string[] }> = {};
/** Each resource's `urls.app` that the app (packages/app) opens: the server sends the app's page. */
const appLinks: Record<string, string> = {};
let spaceId: string;

const ORIGIN = "http://quire.test";
/** A script written into the page: the policy allows none, only the sites' own script file. */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)/;

async function api<T = Record<string, never>>(
  method: "get" | "post",
  path: string,
  body?: object,
): Promise<T> {
  const req = s.t.request[method](path).set(s.admin.auth);
  const res = await (body ? req.send(body) : req);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

/** The path of an absolute app URL on the test server. */
const pathOf = (url: string) => {
  expect(url.startsWith(`${ORIGIN}/app/`)).toBe(true);
  return url.slice(ORIGIN.length);
};

/** Signs `user` in through the sign-in form; the session cookie (`name=value`). */
const signIn = (user: TestUser) => s.t.signIn(user);

/** A browser of its own for each request: the app's agent would keep the cookies it is sent. */
const browser = () => supertest(s.t.app);

const visit = (path: string, cookie?: string) => {
  const req = browser().get(path);
  return cookie ? req.set("Cookie", cookie) : req;
};

beforeAll(async () => {
  s = await createContentScenario();
  const org = s.organizationId;
  const collection = await api<Schema<"Collection">>("post", `/v1/orgs/${org}/collections`, {
    title: "Engineering",
  });
  const space = await api<Schema<"Space">>("post", `/v1/orgs/${org}/spaces`, {
    title: "Handbook",
    parent: collection.id,
  });
  spaceId = space.id;
  const content = spaceContent(s, space.id);
  const first = await content.createChangeRequest();
  await content.edit(first.number, [
    insertPage("Guide", "The guide speaks of **alpacas**. See [installing](/pages/guide/install)."),
  ]);
  const [guide] = await content.pages(first.number);
  await content.edit(first.number, [insertPage("Install", "Run the installer quickly.", guide?.id)]);
  await content.merge(first.number);

  const cr = await content.createChangeRequest(s.admin, "Rewrite the guide");
  await content.edit(cr.number, [
    updatePage(guide?.id as string, { markdown: "The guide now speaks of llamas." }),
    insertPage("FAQ", "Frequently asked questions."),
  ]);
  const crPath = `/v1/spaces/${space.id}/change-requests/${cr.number}`;

  const read = await api<Schema<"Space">>("get", `/v1/spaces/${space.id}`);
  const pages = flatten(
    (await api<{ pages: Schema<"RevisionPage">[] }>("get", `/v1/spaces/${space.id}/content/pages`)).pages,
  );
  const crPages = flatten(
    (await api<{ pages: Schema<"RevisionPage">[] }>("get", `${crPath}/content/pages`)).pages,
  );
  const revision = await api<Schema<"Revision">>("get", `/v1/spaces/${space.id}/revisions/${read.revision}`);
  const organization = await api<Schema<"Organization">>("get", `/v1/orgs/${org}`);
  const site = await api<Schema<"Site">>("post", `/v1/orgs/${org}/sites`, {
    title: "Handbook site",
    spaces: [space.id],
  });
  const spec = await api<Schema<"OpenAPISpec">>("post", `/v1/orgs/${org}/openapi`, {
    slug: "pets",
    source: { text: "openapi: 3.1.0\ninfo: {title: Pets, version: '1'}\npaths: {}\n" },
  });
  const name = `weather-${Date.now()}`;
  const integration = await api<Schema<"Integration">>("post", `/v1/integrations/${name}`, {
    title: "Weather",
    description: "Shows the weather",
    scopes: ["space:content:read"],
    script: "export default {};",
    organization: org,
  });
  const installation = await api<Schema<"Installation">>("post", `/v1/integrations/${name}/installations`, {
    organization: org,
  });

  const install = pages.find((page) => page.title === "Install");
  const faq = crPages.find((page) => page.title === "FAQ");
  Object.assign(appLinks, {
    space: read.urls.app,
    nestedPage: install?.urls?.app,
    organization: organization.urls.app,
    collection: collection.urls.app,
    site: site.urls.app,
    search: `${ORIGIN}/app/orgs/${org}/search?q=alpacas`,
    // A change request and its pages are the app's screen, no longer a preview.
    changeRequest: cr.urls.app,
    pageInChangeRequest: faq?.urls?.app,
    // The app's settings sections show these (it sends each to its section).
    spec: spec.urls.app,
    integration: integration.urls.app,
    installation: installation.urls.app,
  });
  Object.assign(links, {
    revision: { url: revision.urls.app, shows: ["Revision of Handbook", "Guide", "Install"] },
    pageInRevision: { url: `${revision.urls.app}/guide/install`, shows: ["Run the installer quickly."] },
  });
});
afterAll(() => s.t.close());

describe("the API's urls.app, signed in", () => {
  it("each opens an HTML preview of its resource for a member", async () => {
    const cookie = await signIn(s.admin);
    for (const [name, { url, shows }] of Object.entries(links)) {
      const res = await visit(pathOf(url), cookie);
      expect(res.status, name).toBe(200);
      expect(res.type, name).toBe("text/html");
      for (const text of shows) expect(res.text, `${name}: ${text}`).toContain(text);
      expect(res.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers["cache-control"]).toBe("private, no-store");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.text, name).not.toMatch(INLINE_SCRIPT);
    }
  });

  it("follow the API's rules: a reader of the space sees its revisions", async () => {
    const cookie = await signIn(s.reader);
    for (const [name, { url }] of Object.entries(links))
      expect((await visit(pathOf(url), cookie)).status, name).toBe(200);
  });

  it("renders a page's body through the content engine, as published sites do", async () => {
    const cookie = await signIn(s.reader);
    const res = await visit(`${pathOf(links.revision?.url ?? "")}/guide`, cookie).expect(200);
    expect(res.text).toContain("<strong>alpacas</strong>");
    // A link to another page leads to that page's preview.
    expect(res.text).toMatch(
      /<a href="\/app\/spaces\/[^/]+\/revisions\/[^/]+\/guide\/install">installing<\/a>/,
    );
  });

  it("send a visitor signed out to sign in, and back, whether the resource exists or not", async () => {
    const urls = [...Object.values(links).map((link) => link.url), ...Object.values(appLinks)];
    for (const url of [...urls, `${ORIGIN}/app/spaces/nope/change-requests/1`]) {
      const res = await visit(pathOf(url)).expect(303);
      expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent(pathOf(url))}`);
    }
  });

  it("are 404 to a member of another organization, as a missing resource is", async () => {
    const other = await s.t.organization();
    const cookie = await signIn(other.admin);
    for (const [name, { url }] of Object.entries(links)) {
      const res = await visit(pathOf(url), cookie);
      expect(res.status, name).toBe(404);
      expect(res.text).not.toContain("sign-in?next");
    }
  });

  it("are 404 to a guest of the organization for what the API hides from them", async () => {
    const cookie = await signIn(s.outsider);
    await visit(pathOf(links.revision?.url ?? ""), cookie).expect(404);
  });
});

describe("the app at /app/ (packages/app's build)", () => {
  it("sends a visitor signed out to sign in and back, as the previews do", async () => {
    for (const path of ["/app/", "/app/index.html"]) {
      const res = await visit(path).expect(303);
      expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
    }
  });

  it("serves the app's page to a person signed in, revalidated, under a policy with nothing inline", async () => {
    const cookie = await signIn(s.reader);
    for (const path of ["/app/", "/app/index.html"]) {
      const res = await visit(path, cookie).expect(200);
      expect(res.type).toBe("text/html");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["content-security-policy"]).toBe(APP_CONTENT_SECURITY_POLICY);
      expect(res.headers["content-security-policy"]).not.toContain("unsafe-inline");
      expect(res.text).toContain('<div id="root">');
      expect(res.text).not.toMatch(INLINE_SCRIPT);
    }
  });

  it("serves its hashed assets to anyone, cached for a year", async () => {
    const page = await visit("/app/", await signIn(s.reader)).expect(200);
    const assets = [...page.text.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1] ?? "");
    expect(assets.some((path) => path.endsWith(".js"))).toBe(true);
    for (const path of assets) {
      const res = await visit(path).expect(200);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.headers["content-security-policy"]).toBe(APP_CONTENT_SECURITY_POLICY);
    }
    await visit("/app/assets/nope-12345678.js").expect(404);
  });

  it("serves its page at every urls.app no preview shows (its deep links), whatever the resource", async () => {
    const cookie = await signIn(s.reader);
    for (const [name, url] of Object.entries(appLinks)) {
      const res = await visit(pathOf(url), cookie).expect(200);
      expect(res.headers["content-security-policy"], name).toBe(APP_CONTENT_SECURITY_POLICY);
      expect(res.text, name).toContain('<div id="root">');
    }
    // What is missing or hidden is the app's to say, from the API's answer: the page is the same.
    await visit("/app/spaces/nope", cookie).expect(200);
    await visit(`/app/spaces/${spaceId}/change-requests/999`, cookie).expect(200);
    const stranger = await signIn((await s.t.organization()).admin);
    const hidden = await visit(`${pathOf(appLinks.changeRequest ?? "")}?comments=garbage`, stranger).expect(
      200,
    );
    expect(hidden.text).toContain('<div id="root">');
  });
});
