import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimsProblem, DEFAULT_ADAPTIVE_SCHEMA } from "./adaptive-schema.js";
import { publishedStructure } from "./published.js";
import { getSite } from "./store.js";
import { loadSiteStructure } from "./structure.js";
import { buildSpaces, createSite, createSiteScenario, type SiteScenario, sitePath } from "./testing.js";

let s: SiteScenario;
beforeAll(async () => {
  s = await createSiteScenario();
});
afterAll(() => s.t.close());

/**
 * A site with sections "Public" (default, two site spaces: "Everyone" default, "Beta only") and
 * "Pro", which only visitors on the pro plan see.
 */
async function adaptiveSite(adaptive: boolean) {
  const [everyone, beta, pro] = await buildSpaces(s, "Everyone", "Beta only", "Pro");
  const site = await createSite(s, { title: "Public", spaces: [everyone?.id ?? "", beta?.id ?? ""] });
  const path = (rest = "") => sitePath(s.organizationId, site.id, rest);
  const request = (method: "post" | "patch", rest: string, body: object) =>
    s.t.request[method](path(rest))
      .set(s.admin.auth)
      .send(body)
      .expect((res) => expect(res.status).toBeLessThan(300));
  const section = (await request("post", "/sections", { spaceId: pro?.id, title: "Pro" })).body;
  await request("patch", `/sections/${section.id}`, { condition: "visitor.claims.plan == 'pro'" });
  const links = (await s.t.request.get(path("/site-spaces")).set(s.admin.auth)).body.items;
  await request("patch", `/site-spaces/${links[0].id}`, { condition: "!visitor.claims.beta" });
  await request("patch", `/site-spaces/${links[1].id}`, { condition: "visitor.claims.beta === true" });
  await request("patch", "", { adaptiveContent: { enabled: adaptive } });
  return loadSiteStructure(s.t.db, await getSite(s.t.db, site.id));
}

const shape = (structure: Awaited<ReturnType<typeof adaptiveSite>>) =>
  structure.sections.map((section) => [
    section.title,
    section.is_default === 1,
    structure.siteSpaces
      .filter((e) => e.row.section_id === section.id)
      .map((e) => [e.space.title, e.row.is_default === 1]),
  ]);

describe("publishedStructure", () => {
  it("evaluates conditions against a visitor's claims; a hidden default falls back to the first item left", async () => {
    const structure = await adaptiveSite(true);
    expect(shape(publishedStructure(structure))).toEqual([
      [
        "Public",
        true,
        [
          ["Everyone", true],
          ["Beta only", false],
        ],
      ],
      ["Pro", false, [["Pro", true]]],
    ]);
    expect(shape(publishedStructure(structure, { claims: {} }))).toEqual([
      ["Public", true, [["Everyone", true]]],
    ]);
    expect(shape(publishedStructure(structure, { claims: { beta: true, plan: "pro" } }))).toEqual([
      ["Public", true, [["Beta only", true]]],
      ["Pro", false, [["Pro", true]]],
    ]);
    // The stored structure is left as it was.
    expect(structure.siteSpaces.find((e) => e.space.title === "Beta only")?.row.is_default).toBe(0);
  });

  it("hides a section whose site spaces are all hidden, and promotes the next section to default", async () => {
    const structure = await adaptiveSite(true);
    const everyoneHidden = publishedStructure(
      { ...structure, siteSpaces: structure.siteSpaces.filter((e) => e.space.title !== "Beta only") },
      { claims: { beta: true, plan: "pro" } },
    );
    expect(shape(everyoneHidden)).toEqual([["Pro", true, [["Pro", true]]]]);
  });

  it("treats every visitor as claim-less while adaptive content is off", async () => {
    const structure = await adaptiveSite(false);
    expect(shape(publishedStructure(structure, { claims: { beta: true, plan: "pro" } }))).toEqual([
      ["Public", true, [["Everyone", true]]],
    ]);
  });
});

describe("claimsProblem", () => {
  it("checks claims against a site's schema", () => {
    const schema = {
      ...DEFAULT_ADAPTIVE_SCHEMA,
      properties: {
        plan: { type: "string" as const, description: "Plan", enum: ["free", "pro"] },
        beta: { type: "boolean" as const, description: "Beta" },
      },
    };
    expect(claimsProblem(schema, { plan: "pro", beta: true })).toBeUndefined();
    expect(claimsProblem(schema, { plan: "gold" })).toMatch(/^claims\.plan /);
    expect(claimsProblem(schema, { beta: "yes" })).toMatch(/^claims\.beta /);
    expect(claimsProblem(schema, { other: 1 })).toMatch(/additional properties/);
  });
});
