import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingOperations } from "../areas.js";
import { numberEvents } from "../events/numbering.js";
import { loadApiSpec } from "../spec.js";
import { ownTables } from "../testing/database.js";
import { buildNestedSpace, buildSpace } from "../testing/factories.js";
import { createOrganizationScenario, type OrganizationScenario } from "../testing/harness.js";
import { type FuzzRequest, fuzzOperations, fuzzRequests } from "./requests.js";

/**
 * Property-based fuzzing from the contract: random requests over every implemented operation, valid
 * and invalid, sent with response validation on. No answer may be a 5xx (a response that breaks the
 * contract is one), and no request answered 4xx may change a row. `npm test` sends FUZZ_RUNS
 * (default 300) requests per database; `npm run fuzz -w @quire/server` sends 10,000.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

const spec = loadApiSpec();
const operations = fuzzOperations(spec, new Set(pendingOperations));

let s: OrganizationScenario;
let ids: Record<string, string[]>;
let foreignIds: Record<string, string[]>;
let tables: string[];

/** A request as the organization's admin that must succeed; its JSON answer. */
async function seed(method: "post" | "put" | "get", url: string, body?: object) {
  const res = await s.t.request[method](url).set(s.admin.auth).send(body);
  if (res.status >= 300)
    throw new Error(`seeding ${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Real resources of every kind the paths name, so that requests reach handlers, not only 404s. */
async function seedResources(): Promise<Record<string, string[]>> {
  const { t, organizationId } = s;
  const { collection, space } = await buildNestedSpace(t, { organization_id: organizationId });
  const cr = await seed("post", `/v1/spaces/${space.id}/change-requests`, { subject: "Seed" });
  await seed("post", `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
    changes: [{ type: "insert_page", title: "Seed page", markdown: "# Heading\n\nText." }],
  });
  await seed("post", `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
  const open = await seed("post", `/v1/spaces/${space.id}/change-requests`, { subject: "Open" });
  const { pages } = await seed("get", `/v1/spaces/${space.id}/content/pages`);
  const { revision } = await seed("get", `/v1/spaces/${space.id}/content`);
  const site = await seed("post", `/v1/orgs/${organizationId}/sites`, {
    title: "Seed site",
    spaces: [space.id],
  });
  const sitePath = `/v1/orgs/${organizationId}/sites/${site.id}`;
  const section = await seed("post", `${sitePath}/sections`, { spaceId: space.id, title: "Seed section" });
  const group = await seed("post", `${sitePath}/section-groups`, { title: "Seed group" });
  const siteSpaces = await seed("get", `${sitePath}/site-spaces`);
  const shareLink = await seed("post", `${sitePath}/share-links`, { name: "Seed link" });
  const field = await seed("post", `/v1/orgs/${organizationId}/custom-fields`, {
    name: "seed-field",
    title: "Seed field",
    type: "text",
  });
  const comments = `/v1/spaces/${space.id}/comments`;
  const spaceComment = await seed("post", comments, { body: { markdown: "c" }, page: pages[0].id });
  const spaceReply = await seed("post", `${comments}/${spaceComment.id}/replies`, {
    body: { markdown: "r" },
  });
  const crComments = `/v1/spaces/${space.id}/change-requests/${open.id}/comments`;
  const crComment = await seed("post", crComments, { body: { markdown: "c" } });
  const crReply = await seed("post", `${crComments}/${crComment.id}/replies`, { body: { markdown: "r" } });
  const org = `/v1/orgs/${organizationId}`;
  const team = await seed("put", `${org}/teams`, { title: "Seed team" });
  const invite = await seed("post", `${org}/link-invites`, { role: "read" });
  const samlProvider = await seed("post", `${org}/saml`, { label: "Seed provider" });
  const translation = await seed("post", `${org}/translations`, { title: "Seed translation" });
  const openapi = JSON.stringify({ openapi: "3.1.0", info: { title: "Seed", version: "1" }, paths: {} });
  await seed("post", `${org}/openapi`, { slug: "seed-spec", source: { text: openapi } });
  await seed("post", "/v1/integrations/seed-integration", {
    title: "Seed integration",
    description: "Seeded for the fuzzer",
    scopes: ["space:content:read"],
    script: "export default {};",
    organization: organizationId,
  });
  const installation = await seed("post", "/v1/integrations/seed-integration/installations", {
    organization: organizationId,
  });
  return {
    organizationId: [organizationId],
    collectionId: [collection.id],
    spaceId: [space.id],
    changeRequestId: [cr.id, open.id, String(open.number)],
    pageId: pages.map((page: { id: string }) => page.id),
    revisionId: [revision],
    siteId: [site.id],
    siteSectionId: [section.id],
    siteSectionGroupId: [group.id],
    siteSpaceId: siteSpaces.items.map((item: { id: string }) => item.id),
    shareLinkId: [shareLink.id],
    fieldName: [field.name],
    userId: [s.admin.user.id, s.reader.user.id],
    commentId: [spaceComment.id, crComment.id],
    commentReplyId: [spaceReply.id, crReply.id],
    teamId: [team.id],
    inviteId: [invite.id],
    samlProviderId: [samlProvider.id],
    translationSettingsId: [translation.id],
    specSlug: ["seed-spec"],
    integrationName: ["seed-integration"],
    installationId: [installation.id],
    emailDomain: ["example.com"],
  };
}

/**
 * Every row of every table, as text: equal snapshots mean nothing was written. The events committed
 * are numbered first: a request that reads the stream numbers them too (see `numberEvents`), which
 * moves nothing but what was already written.
 */
async function snapshot(): Promise<string> {
  await numberEvents(s.t.db);
  const rows = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(s.t.db);
      return rows.map((row) => JSON.stringify(row)).sort();
    }),
  );
  return JSON.stringify(rows);
}

function send({ method, url, body, sender }: FuzzRequest) {
  let request = s.t.request[method](url);
  if (sender !== "none") request = request.set((sender === "admin" ? s.admin : s.reader).auth);
  if (body !== undefined)
    request = request.set("Content-Type", "application/json").send(JSON.stringify(body));
  return request;
}

beforeAll(async () => {
  s = await createOrganizationScenario();
  ids = await seedResources();
  const other = await s.t.organization();
  const otherSpace = await buildSpace(s.t, { organization_id: other.organizationId });
  foreignIds = {
    organizationId: [other.organizationId],
    spaceId: [otherSpace.id],
    userId: [other.admin.user.id],
  };
  tables = (await ownTables(s.t.db)).map((table) => table.name).filter((name) => !name.startsWith("kysely_"));
}, 60_000);
afterAll(() => s.t.close());

describe("the contract, fuzzed", () => {
  it(`answers ${RUNS} random requests without a 5xx, and writes nothing when it answers 4xx`, {
    timeout: Math.max(60_000, RUNS * 200),
  }, async () => {
    const statuses = new Map<number, number>();
    const succeeded = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fuzzRequests(operations, spec, ids, foreignIds), async (request) => {
        const before = await snapshot();
        const res = await send(request);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status < 300) succeeded.add(request.operationId);
        expect(res.status, `${request.method} ${request.url}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (res.status >= 400)
          expect(await snapshot(), `${request.method} ${request.url} wrote`).toBe(before);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // Both sides of the contract are reached: some requests succeed, some are refused.
    const answered = [...statuses].sort(([a], [b]) => a - b);
    console.log(
      `${RUNS} requests over ${operations.length} operations (${succeeded.size} answered 2xx at least once); statuses: ${JSON.stringify(Object.fromEntries(answered))}`,
    );
    expect(
      answered.some(([status]) => status < 300),
      JSON.stringify(answered),
    ).toBe(true);
    expect(
      answered.some(([status]) => status >= 400),
      JSON.stringify(answered),
    ).toBe(true);
  });
});
