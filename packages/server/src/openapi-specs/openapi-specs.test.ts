import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner, type JobRunner } from "../jobs/runner.js";
import { createFetcher, publicAddressesOnly } from "../net/fetch.js";
import { startTestServer, type TestServer } from "../net/test-server.js";
import { createOrganizationScenario, type TestApp, type TestUser } from "../testing/harness.js";
import { openApiSpecTasks, REFRESH_AFTER_MS } from "./processing.js";

let t: TestApp;
let organizationId: string;
let admin: TestUser;
/** A member with the `create` role: the least that may change specifications. */
let creator: TestUser;
let reader: TestUser;
let guest: TestUser;
let outsider: TestUser;
let server: TestServer;
/** The processing jobs, allowed to fetch from the loopback test server. */
let jobs: JobRunner;

const SWAGGER_2_YAML = `swagger: "2.0"
info:
  title: Pets
  version: "1"
paths: {}
`;
const openapi = (version: string, title = "Pets") =>
  JSON.stringify({ openapi: version, info: { title, version: "1" }, paths: {} });

/** What the test server answers, by path; a path not here answers 404. */
const served = new Map<string, string>();
/** Requests to `/held` wait until this is opened. */
let releaseHeld = () => {};
const held = new Promise<void>((resolve) => {
  releaseHeld = resolve;
});

beforeAll(async () => {
  ({ t, organizationId, admin, reader, outsider, creator, guest } = await createOrganizationScenario({
    users: { creator: "create", guest: "guest" },
  }));
  server = await startTestServer(async (req, res) => {
    if (req.url === "/slow") return; // never answers
    if (req.url === "/held") await held;
    const body = served.get(req.url ?? "");
    if (body === undefined) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  served.set("/held", openapi("3.1.0"));
  jobs = createJobRunner({
    db: t.db,
    clock: t.clock,
    ids: t.ids,
    tasks: openApiSpecTasks({
      fetcher: createFetcher({ allowedPrivateAddresses: ["127.0.0.1"] }),
      fetchTimeoutMs: 500,
    }),
  });
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const base = () => `/v1/orgs/${organizationId}/openapi`;
let slugs = 0;
const newSlug = () => `spec-${++slugs}`;

async function create(source: { url: string } | { text: string }, slug = newSlug()) {
  const res = await t.request.post(base()).set(admin.auth).send({ slug, source }).expect(201);
  return res.body as { slug: string; id: string };
}
const read = async (slug: string) =>
  (await t.request.get(`${base()}/${slug}`).set(admin.auth).expect(200)).body;
/** Creates a specification and runs its processing; the specification as read back then. */
async function processed(source: { url: string } | { text: string }) {
  const { slug } = await create(source);
  await jobs.runUntilIdle();
  return read(slug);
}
const versionsOf = (specId: string) =>
  t.db.selectFrom("openapi_spec_versions").selectAll().where("spec_id", "=", specId).orderBy("id").execute();

describe("POST /v1/orgs/{organizationId}/openapi", () => {
  it("creates a specification from text, pending until processed, then complete with a version", async () => {
    const res = await t.request
      .post(base())
      .set(creator.auth)
      .send({ slug: "pets", source: { text: openapi("3.1.0") } })
      .expect(201);
    expect(res.body).toEqual({
      object: "openapi-spec",
      id: expect.any(String),
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
      slug: "pets",
      processingState: "pending",
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: {
        location: `http://quire.test/v1/orgs/${organizationId}/openapi/pets`,
        app: `http://quire.test/app/orgs/${organizationId}/openapi/pets`,
      },
    });
    expect(res.headers.location).toBe(res.body.urls.location);

    expect(await jobs.runUntilIdle()).toBeGreaterThanOrEqual(1);
    const spec = await read("pets");
    expect(spec).toMatchObject({
      processingState: "complete",
      lastProcessedAt: t.clock.now().toISOString(),
      lastProcessedErrorCount: 0,
    });
    expect(spec).not.toHaveProperty("lastProcessErrorCode");
    const versions = await versionsOf(spec.id);
    expect(versions).toMatchObject([{ id: spec.lastVersion, url: null, content: openapi("3.1.0") }]);
  });

  it("creates a specification from a URL, fetched from the server in the background", async () => {
    served.set("/pets.json", openapi("3.0.3"));
    const { slug } = await create({ url: `${server.origin}/pets.json` });
    expect(await read(slug)).toMatchObject({
      processingState: "pending",
      sourceURL: `${server.origin}/pets.json`,
    });
    await jobs.runUntilIdle();
    const spec = await read(slug);
    expect(spec).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
    expect(await versionsOf(spec.id)).toMatchObject([
      { url: `${server.origin}/pets.json`, content: openapi("3.0.3") },
    ]);
  });

  it("accepts Swagger 2.0, OpenAPI 3.0 and 3.1, in JSON or YAML", async () => {
    for (const text of [SWAGGER_2_YAML, openapi("3.0.0"), openapi("3.1.1")]) {
      const spec = await processed({ text });
      expect(spec).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
      expect(spec).not.toHaveProperty("lastProcessErrorCode");
    }
  });

  it("ends a broken or invalid document with PARSE_ERROR and no version", async () => {
    const invalid = JSON.stringify({ openapi: "3.1.0", info: { version: "1" }, paths: {} });
    const unknownVersion = JSON.stringify({ swagger: "1.2", info: { title: "t" } });
    for (const text of ["{ not: json, nor yaml ]", "just words", invalid, unknownVersion]) {
      const spec = await processed({ text });
      expect(spec).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR" });
      expect(spec.lastProcessedErrorCount).toBeGreaterThanOrEqual(1);
      expect(spec).not.toHaveProperty("lastVersion");
      expect(await versionsOf(spec.id)).toEqual([]);
    }
  });

  it("counts the errors of the last processing (lastProcessedErrorCount), back to 0 once one succeeds", async () => {
    // No title, and responses that are not an object: two errors.
    const twoErrors = JSON.stringify({
      openapi: "3.1.0",
      info: { version: "1" },
      paths: { "/pets": { get: { responses: 5 } } },
    });
    const spec = await processed({ text: twoErrors });
    expect(spec).toMatchObject({ lastProcessErrorCode: "PARSE_ERROR", lastProcessedErrorCount: 2 });
    const list = await t.request.get(base()).set(admin.auth).expect(200);
    expect(list.body.items.find((item: { id: string }) => item.id === spec.id)).toMatchObject({
      lastProcessedErrorCount: 2,
    });

    await t.request
      .put(`${base()}/${spec.slug}`)
      .set(admin.auth)
      .send({ source: { text: openapi("3.1.0") } })
      .expect(200);
    await jobs.runUntilIdle();
    const fixed = await read(spec.slug);
    expect(fixed).toMatchObject({ processingState: "complete", lastProcessedErrorCount: 0 });
    expect(fixed).not.toHaveProperty("lastProcessErrorCode");
  });

  it("ends a URL that answers an error with FETCH_ERROR, and one that answers too late with FETCH_TIMEOUT", async () => {
    // The failed fetch is the one error of the processing.
    expect(await processed({ url: `${server.origin}/missing.json` })).toMatchObject({
      processingState: "complete",
      lastProcessErrorCode: "FETCH_ERROR",
      lastProcessedErrorCount: 1,
    });
    expect(await processed({ url: `${server.origin}/slow` })).toMatchObject({
      processingState: "complete",
      lastProcessErrorCode: "FETCH_TIMEOUT",
      lastProcessedErrorCount: 1,
    });
  });

  it("refuses to fetch from private addresses by default (FETCH_ERROR), without a request", async () => {
    served.set("/private.json", openapi("3.1.0"));
    let requests = 0;
    const counting = await startTestServer((_req, res) => {
      requests += 1;
      res.end(openapi("3.1.0"));
    });
    try {
      const strict = createJobRunner({
        db: t.db,
        clock: t.clock,
        ids: t.ids,
        tasks: openApiSpecTasks({ fetcher: createFetcher(publicAddressesOnly) }),
      });
      for (const url of [`${counting.origin}/x.json`, counting.origin.replace("127.0.0.1", "localhost")]) {
        const { slug } = await create({ url });
        await strict.runUntilIdle();
        expect(await read(slug)).toMatchObject({
          processingState: "complete",
          lastProcessErrorCode: "FETCH_ERROR",
        });
      }
      expect(requests).toBe(0);
    } finally {
      await counting.close();
    }
  });

  it("is in progress while its source is being fetched", async () => {
    const { slug } = await create({ url: `${server.origin}/held` });
    const running = jobs.runUntilIdle();
    const deadline = Date.now() + 30_000;
    while ((await read(slug)).processingState !== "progress") {
      if (Date.now() > deadline) throw new Error("the specification never went in progress");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    releaseHeld();
    await running;
    expect(await read(slug)).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
  });

  it("answers 404 to a non-member, 403 below the create role, 400 and 409", async () => {
    const body = { slug: "denied", source: { text: openapi("3.1.0") } };
    await t.request.post(base()).set(outsider.auth).send(body).expect(404);
    await t.request.post(base()).set(reader.auth).send(body).expect(403);
    await t.request.post(base()).set(guest.auth).send(body).expect(403);
    for (const bad of [
      { slug: "Not_A_Slug", source: { text: "x" } },
      { slug: "ok", source: {} },
      { slug: "ok", source: { text: "" } },
      { slug: "ok", source: { url: "not a url" } },
      { slug: "ok", source: { url: "ftp://example.com/spec.json" } },
      { slug: "ok", source: { url: "https://example.com/spec.json", text: "x" } },
      { slug: "ok" },
    ]) {
      await t.request.post(base()).set(admin.auth).send(bad).expect(400);
    }
    // GitBook's slugs may have capitals; case counts, as in any other id.
    const upper = await create({ text: openapi("3.1.0") }, "PetStore-V2");
    expect(await read(upper.slug)).toMatchObject({ slug: "PetStore-V2" });
    await t.request.get(`${base()}/petstore-v2`).set(admin.auth).expect(404);
    const { slug } = await create({ text: openapi("3.1.0") });
    const taken = await t.request
      .post(base())
      .set(admin.auth)
      .send({ slug, source: { text: "x" } })
      .expect(409);
    expect(taken.body.error.message).toContain(slug);
    for (const refused of ["denied", "ok"])
      await t.request.get(`${base()}/${refused}`).set(admin.auth).expect(404);
  });
});

describe("GET /v1/orgs/{organizationId}/openapi", () => {
  it("lists the specifications by slug, a page at a time, with the caller's permissions", async () => {
    const { organizationId: org, admin: owner } = await t.organization();
    const member = await t.user({ organizationId: org, role: "read" });
    for (const slug of ["b", "c", "a"])
      await t.request
        .post(`/v1/orgs/${org}/openapi`)
        .set(owner.auth)
        .send({ slug, source: { text: "x" } })
        .expect(201);

    const first = await t.request.get(`/v1/orgs/${org}/openapi?limit=2`).set(member.auth).expect(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((spec: { slug: string }) => spec.slug)).toEqual(["a", "b"]);
    expect(first.body.items[0].permissions).toEqual({ view: true, edit: false });
    const second = await t.request
      .get(`/v1/orgs/${org}/openapi?limit=2&page=${first.body.next.page}`)
      .set(member.auth)
      .expect(200);
    expect(second.body.items.map((spec: { slug: string }) => spec.slug)).toEqual(["c"]);
    expect(second.body).not.toHaveProperty("next");
  });

  it("answers 404 to a non-member, 403 to a guest, and 400 for a bad page", async () => {
    await t.request.get(base()).set(outsider.auth).expect(404);
    await t.request.get(base()).set(guest.auth).expect(403);
    await t.request.get(`${base()}?page=nonsense`).set(admin.auth).expect(400);
    await t.request.get(`${base()}?limit=-1`).set(admin.auth).expect(400);
  });
});

describe("GET /v1/orgs/{organizationId}/openapi/{specSlug}", () => {
  it("returns the specification to any member", async () => {
    const { slug, id } = await create({ text: openapi("3.1.0") });
    const res = await t.request.get(`${base()}/${slug}`).set(reader.auth).expect(200);
    expect(res.body).toMatchObject({ id, slug, permissions: { view: true, edit: false } });
  });

  it("answers 404 to a non-member or for an unknown slug, 403 to a guest, 400", async () => {
    const { slug } = await create({ text: openapi("3.1.0") });
    await t.request.get(`${base()}/${slug}`).set(outsider.auth).expect(404);
    await t.request.get(`${base()}/no-such-spec`).set(admin.auth).expect(404);
    await t.request.get(`${base()}/Not_A_Slug`).set(admin.auth).expect(404);
    await t.request.get(`${base()}/${slug}`).set(guest.auth).expect(403);
    await t.request.get(`${base()}/${slug}?unknown=1`).set(admin.auth).expect(400);
  });
});

describe("PUT /v1/orgs/{organizationId}/openapi/{specSlug}", () => {
  it("creates a specification under a new slug (201) and replaces the source of an existing one (200)", async () => {
    const slug = `Pets-${newSlug()}`;
    const createdRes = await t.request
      .put(`${base()}/${slug}`)
      .set(creator.auth)
      .send({ source: { url: `${server.origin}/pets.json` } })
      .expect(201);
    expect(createdRes.headers.location).toBe(createdRes.body.urls.location);
    expect(createdRes.body).toMatchObject({
      slug,
      processingState: "pending",
      sourceURL: `${server.origin}/pets.json`,
    });
    await jobs.runUntilIdle();
    const first = await read(slug);

    t.clock.advance(60_000);
    const replaced = await t.request
      .put(`${base()}/${slug}`)
      .set(creator.auth)
      .send({ source: { text: openapi("3.1.0", "Replaced") } })
      .expect(200);
    expect(replaced.body).toMatchObject({
      id: first.id,
      createdAt: first.createdAt,
      updatedAt: t.clock.now().toISOString(),
      processingState: "pending",
      lastVersion: first.lastVersion,
    });
    expect(replaced.body).not.toHaveProperty("sourceURL");
    await jobs.runUntilIdle();
    const second = await read(slug);
    expect(second).toMatchObject({ processingState: "complete" });
    expect(second.lastVersion).not.toBe(first.lastVersion);

    // The same document again makes no new version.
    await t.request
      .put(`${base()}/${slug}`)
      .set(admin.auth)
      .send({ source: { text: openapi("3.1.0", "Replaced") } })
      .expect(200);
    await jobs.runUntilIdle();
    expect((await read(slug)).lastVersion).toBe(second.lastVersion);
    expect(await versionsOf(first.id)).toHaveLength(2);
  });

  it("processes only the latest source when it is replaced before processing", async () => {
    const { slug, id } = await create({ text: openapi("3.1.0", "First") });
    await t.request
      .put(`${base()}/${slug}`)
      .set(admin.auth)
      .send({ source: { text: openapi("3.1.0", "Second") } })
      .expect(200);
    await jobs.runUntilIdle();
    expect(await read(slug)).toMatchObject({ processingState: "complete" });
    expect(await versionsOf(id)).toMatchObject([{ content: openapi("3.1.0", "Second") }]);
  });

  it("answers 404 to a non-member, 403 below the create role, and 400", async () => {
    const { slug } = await create({ text: openapi("3.1.0") });
    const body = { source: { text: "changed" } };
    await t.request.put(`${base()}/${slug}`).set(outsider.auth).send(body).expect(404);
    await t.request.put(`${base()}/${slug}`).set(reader.auth).send(body).expect(403);
    await t.request.put(`${base()}/new-one`).set(reader.auth).send(body).expect(403);
    await t.request.put(`${base()}/Not_A_Slug`).set(admin.auth).send(body).expect(400);
    await t.request.put(`${base()}/-Dangling`).set(admin.auth).send(body).expect(400);
    await t.request
      .put(`${base()}/${"a".repeat(101)}`)
      .set(admin.auth)
      .send(body)
      .expect(400);
    await t.request
      .put(`${base()}/${slug}`)
      .set(admin.auth)
      .send({ source: { text: "x", url: "https://example.com/" } })
      .expect(400);
    await t.request.put(`${base()}/${slug}`).set(admin.auth).send({}).expect(400);
    const unchanged = await read(slug);
    expect(unchanged).toMatchObject({ processingState: "pending" });
    expect(unchanged.updatedAt).toBe(unchanged.createdAt);
    await t.request.get(`${base()}/new-one`).set(admin.auth).expect(404);
  });
});

describe("DELETE /v1/orgs/{organizationId}/openapi/{specSlug}", () => {
  it("deletes the specification and its versions", async () => {
    const spec = await processed({ text: openapi("3.1.0") });
    await t.request.delete(`${base()}/${spec.slug}`).set(creator.auth).expect(204);
    await t.request.get(`${base()}/${spec.slug}`).set(admin.auth).expect(404);
    expect(await versionsOf(spec.id)).toEqual([]);
  });

  it("leaves nothing for a processing job queued before the delete to do", async () => {
    const { slug, id } = await create({ text: openapi("3.1.0") });
    await t.request.delete(`${base()}/${slug}`).set(admin.auth).expect(204);
    await jobs.runUntilIdle();
    expect(await versionsOf(id)).toEqual([]);
    expect(
      await t.db.selectFrom("jobs").select("id").where("task", "=", "openapi-specs.process").execute(),
    ).toEqual([]);
  });

  it("answers 404 to a non-member or for an unknown slug, 403 below the create role", async () => {
    const { slug } = await create({ text: openapi("3.1.0") });
    await t.request.delete(`${base()}/${slug}`).set(outsider.auth).expect(404);
    await t.request.delete(`${base()}/no-such-spec`).set(admin.auth).expect(404);
    await t.request.delete(`${base()}/${slug}`).set(reader.auth).expect(403);
    await t.request.get(`${base()}/${slug}`).set(admin.auth).expect(200);
  });
});

describe("URL sources", () => {
  it("are fetched again once 6 hours have passed since they were processed, a new version if changed", async () => {
    served.set("/changing.json", openapi("3.1.0", "Before"));
    const before = await processed({ url: `${server.origin}/changing.json` });
    const text = await processed({ text: openapi("3.1.0") });
    served.set("/changing.json", openapi("3.1.0", "After"));

    t.clock.advance(REFRESH_AFTER_MS - 60_000);
    await jobs.runUntilIdle();
    expect((await read(before.slug)).lastVersion).toBe(before.lastVersion);

    t.clock.advance(10 * 60_000);
    await jobs.runUntilIdle();
    const after = await read(before.slug);
    expect(after).toMatchObject({
      processingState: "complete",
      lastProcessedAt: t.clock.now().toISOString(),
    });
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(after.lastVersion).not.toBe(before.lastVersion);
    expect(await versionsOf(before.id)).toMatchObject([
      { content: openapi("3.1.0", "Before") },
      { content: openapi("3.1.0", "After") },
    ]);
    // Text sources have nothing to fetch again.
    expect(await read(text.slug)).toEqual(text);
  });
});
