import type { Schema } from "@quire/api-types";
import supertest from "supertest";
import { expect } from "vitest";
import { type ContentScenario, insertPage, newSpaceContent } from "../change-requests/testing.js";
import type { SpaceTable } from "../db/schema.js";
import { buildSpace } from "../testing/factories.js";
import { createOrganizationScenario, type OrganizationScenario, type TestUser } from "../testing/harness.js";

/** An organization with a creator (who arranges sites but does not administer them) and a guest. */
export interface SiteScenario extends OrganizationScenario {
  creator: TestUser;
  guest: TestUser;
  /** An administrator of another organization. */
  stranger: TestUser;
  strangerOrganizationId: string;
}

export async function createSiteScenario(): Promise<SiteScenario> {
  const scenario = await createOrganizationScenario({ users: { creator: "create", guest: "guest" } });
  const other = await scenario.t.organization();
  return { ...scenario, stranger: other.admin, strangerOrganizationId: other.organizationId };
}

/** API path of a site, or of something under it. */
export const sitePath = (organizationId: string, siteId: string, rest = "") =>
  `/v1/orgs/${organizationId}/sites/${siteId}${rest}`;

/** Spaces stored directly in the organization, titled as given. */
export function buildSpaces(s: SiteScenario, ...titles: string[]): Promise<SpaceTable[]> {
  return Promise.all(titles.map((title) => buildSpace(s.t, { organization_id: s.organizationId, title })));
}

/** A site created through the API by the organization's admin. */
export async function createSite(
  s: SiteScenario,
  body: Partial<Schema<"CreateSiteRequest">> = {},
): Promise<Schema<"Site">> {
  const res = await s.t.request
    .post(`/v1/orgs/${s.organizationId}/sites`)
    .set(s.admin.auth)
    .send(body)
    .expect(201);
  return res.body;
}

/** A site of the other organization, created by its admin. */
export async function createStrangerSite(s: SiteScenario): Promise<Schema<"Site">> {
  const res = await s.t.request
    .post(`/v1/orgs/${s.strangerOrganizationId}/sites`)
    .set(s.stranger.auth)
    .send({})
    .expect(201);
  return res.body;
}

/**
 * What the published-site tests ask of their content scenario (`scenario()`, set in `beforeAll`):
 * the site API as its admin, and a visitor's requests, with no cookie jar, so that each visit sends
 * only what the test gives it.
 */
export function siteVisits(scenario: () => ContentScenario) {
  const sitePath = (siteId: string, rest = "") =>
    `/v1/orgs/${scenario().organizationId}/sites/${siteId}${rest}`;
  /** A request to the site API as the organization's admin, expecting success. */
  const siteApi = async (method: "get" | "post" | "patch", path: string, body?: object) => {
    const res = await scenario().t.request[method](path).set(scenario().admin.auth).send(body);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };
  const visit = (path: string) => supertest(scenario().t.app).get(path).redirects(0);
  /**
   * A site titled "Handbook" over a new space whose main content holds `pages` (a "Guide" by
   * default), published; `settings` go into its creation. The pages' ids come by title.
   */
  const publishedSite = async (
    pages = [insertPage("Guide", "Words.")],
    settings: Partial<Schema<"CreateSiteRequest">> = {},
  ) => {
    const content = await newSpaceContent(scenario());
    const pageIds = await content.seed(pages);
    const site: Schema<"Site"> = await siteApi("post", `/v1/orgs/${scenario().organizationId}/sites`, {
      title: "Handbook",
      spaces: [content.spaceId],
      ...settings,
    });
    await siteApi("post", sitePath(site.id, "/publish"));
    return { site, content, pageIds };
  };
  /**
   * The pages of the site at `root` (`/s/<id>`) a reader reaches by links from its first page (and by
   * its navigation, with `navigation`), by path, with their HTML; every link, image and image source of their content that stays on the
   * server is expected to answer, and every `#anchor` to name an element of its page.
   */
  const crawl = async (
    root: string,
    options: { navigation?: boolean } = {},
  ): Promise<Map<string, string>> => {
    const pages = new Map<string, string>();
    const checked = new Set<string>();
    const toVisit = [`${root}/`];
    for (let path = toVisit.shift(); path !== undefined; path = toVisit.shift()) {
      if (pages.has(path)) continue;
      const page = await visit(path);
      expect([200, 302], path).toContain(page.status);
      if (page.status === 302) {
        toVisit.push(page.headers.location as string);
        continue;
      }
      pages.set(path, page.text);
      const navigation = options.navigation ? /<nav aria-label="Pages".*?<\/nav>/s.exec(page.text) : null;
      for (const [, href] of navigation?.[0].matchAll(/<a href="([^"]+)"/g) ?? [])
        if (href?.startsWith(`${root}/`)) toVisit.push(href);
      const main = /<main.*<\/main>/s.exec(page.text)?.[0] ?? "";
      const urls = [...main.matchAll(/(?:href|src|srcset)="([^"]+)"/g)].flatMap(([attribute, value]) =>
        attribute.startsWith("srcset")
          ? (value as string).split(",").map((candidate) => candidate.trim().split(/\s+/)[0] as string)
          : [value as string],
      );
      for (const url of urls) {
        const target = new URL(url.replaceAll("&#x26;", "&").replaceAll("&amp;", "&"), `http://site${path}`);
        if (target.origin !== "http://site") continue;
        if (target.pathname.startsWith(`${root}/`) && !target.pathname.includes("/~"))
          toVisit.push(target.pathname);
        else if (!checked.has(target.href)) {
          checked.add(target.href);
          const answer = await visit(`${target.pathname}${target.search}`);
          expect(answer.status, `${url} on ${path}`).toBe(200);
        }
        // An anchor names an element of the page it is on.
        if (target.hash)
          expect(
            pages.get(target.pathname) ?? (await visit(target.pathname)).text,
            `${url} on ${path}`,
          ).toContain(`id="${decodeURIComponent(target.hash.slice(1))}"`);
      }
    }
    return pages;
  };
  return { sitePath, siteApi, visit, publishedSite, crawl };
}
