import type { Schema } from "@quire/api-types";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareMerge } from "./change-requests/edits.js";
import {
  type ContentScenario,
  createContentScenario,
  expectError,
  insertPage,
  jsonDocument,
  newSpaceContent,
  textBlock,
} from "./change-requests/testing.js";
import { type ContentLimits, contentEngine, useContentLimits } from "./content/engine/index.js";

/**
 * The attacks of issue 23, at sizes that run fast against lowered limits: a body that nests past the
 * limit, one whose parse takes longer than the time limit, a PDF too large to lay out in time, a
 * published page that cannot be rendered. Each is refused with 422 and changes nothing, the server
 * answers other requests meanwhile, and what was refused is not attempted again.
 */
const limits: ContentLimits = {
  maxNesting: 30,
  // Room for a new thread to load its modules and read a 300 KB body on a busy CI machine; the slow
  // bodies below take several times longer.
  pool: { threads: 1, maxQueue: 8, timeoutMs: 2_500, memoryMb: 128 },
  pdf: { threads: 1, maxQueue: 4, timeoutMs: 1_500, memoryMb: 192 },
  cacheBytes: 8 * 1024 * 1024,
};

/** Thousands of emphasis delimiters in one paragraph: the parser's time grows with their square. */
const slowToParse = "*a**".repeat(30_000);

let s: ContentScenario;
beforeAll(async () => {
  await useContentLimits(limits);
  s = await createContentScenario();
});
afterAll(async () => {
  await s.t.close();
  await contentEngine().close();
});

describe("page bodies past the content limits", { timeout: 60_000 }, () => {
  it("refuses a body nesting deeper than the limit with 422, storing nothing", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const res = await space.edit(cr.number, [insertPage("Deep", `${"> ".repeat(31)}x`)], s.admin, 422);
    expectError(res.body, 422, "nests 31 levels deep", "content_too_complex");
    expect(await space.pages(cr.number)).toEqual([]);
    expect((await space.getChangeRequest(cr.number)).revision).toBe(cr.revision);
  });

  it("refuses GitBook's JSON documents nesting past the limit with 422, and ones too deep to read with 400, storing nothing", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const nested = (depth: number) => {
      let node: Schema<"DocumentBlock"> = textBlock("paragraph", "x");
      for (let i = 0; i < depth; i++) node = { object: "block", type: "blockquote", nodes: [node] };
      return { operation: "insert_page" as const, title: "Deep", document: { document: jsonDocument(node) } };
    };
    const deep = await space.edit(cr.number, [nested(121)], s.admin, 422);
    expectError(
      deep.body,
      422,
      "The document nests 123 nodes deep; the server accepts up to 120",
      "content_too_complex",
    );
    // As deep as a 1 MB request can hold, written out (no serializer recurses that deep): refused
    // before anything walks it, the server unharmed.
    const levels = 20_000;
    const quote = '{"object":"block","type":"blockquote","nodes":[';
    const deepest = await s.t.request
      .post(`/v1/spaces/${space.spaceId}/change-requests/${cr.number}/content`)
      .set(s.admin.auth)
      .set("content-type", "application/json")
      .send(
        `{"changes":[{"operation":"insert_page","title":"Deepest","document":{"document":{"object":"document","data":{},"nodes":[${quote.repeat(levels)}${"]}".repeat(levels)}]}}}]}`,
      );
    expect(deepest.status).toBe(400);
    expectError(deepest.body, 400, "nest");
    await supertest(s.t.app).get("/health").expect(200);
    expect(await space.pages(cr.number)).toEqual([]);
    expect((await space.getChangeRequest(cr.number)).revision).toBe(cr.revision);
  });

  it("refuses a body that takes longer than the limit to read, answering other requests meanwhile", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    const finished: string[] = [];
    const edit = space.edit(cr.number, [insertPage("Slow", slowToParse)], s.admin, 422).then((res) => {
      finished.push("edit");
      return res;
    });
    const health = supertest(s.t.app)
      .get("/health")
      .expect(200)
      .then(() => finished.push("health"));
    const read = s.t.request
      .get(`/v1/spaces/${space.spaceId}`)
      .set(s.reader.auth)
      .expect(200)
      .then(() => finished.push("read"));
    const [res] = await Promise.all([edit, health, read]);
    expect(finished.indexOf("edit")).toBe(2);
    expectError(res.body, 422, "takes longer than the 2500 ms", "content_too_complex");
    expect(await space.pages(cr.number)).toEqual([]);
    // The refusal is remembered: the same body again is refused without another attempt.
    const attempts = contentEngine().attempts;
    await space.edit(cr.number, [insertPage("Slow", slowToParse)], s.admin, 422);
    expect(contentEngine().attempts).toBe(attempts);
    await space.edit(cr.number, [insertPage("Fine", "Plain **text**.")]);
    expect((await space.pages(cr.number)).map((page) => page.title)).toEqual(["Fine"]);
  });

  it("answers a PDF too large to lay out in time with 422, once", async () => {
    // Reading the 300 KB body may take the content pool seconds on a busy machine; laying its 60,000
    // words out always takes the PDF pool far longer than 200 ms.
    await useContentLimits({
      ...limits,
      pool: { ...limits.pool, timeoutMs: 20_000 },
      pdf: { ...limits.pdf, timeoutMs: 200 },
    });
    try {
      const space = await newSpaceContent(s);
      const cr = await space.createChangeRequest();
      await space.edit(cr.number, [insertPage("Long", "word ".repeat(60_000))]);
      const { body } = await s.t.request
        .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}/pdf`)
        .set(s.admin.auth)
        .expect(200);
      const path = new URL(body.url).pathname;
      const refused = await supertest(s.t.app).get(path).expect(422);
      expectError(refused.body, 422, "PDF export takes longer than the 200 ms", "content_too_complex");
      const attempts = contentEngine().attempts;
      await supertest(s.t.app).get(path).expect(422);
      expect(contentEngine().attempts).toBe(attempts);
    } finally {
      await useContentLimits(limits);
    }
  });

  it("shows a published page that cannot be rendered as the reason, under the site's navigation, rendering it once", async () => {
    const space = await newSpaceContent(s);
    // Long enough that its render always outlasts the 1 ms below, which runs from the render's call.
    const body = `Some **bold** text.\n\n${"A paragraph with *emphasis* and `code`.\n\n".repeat(2_000)}`;
    await space.seed([insertPage("Guide", body)]);
    const api = (method: "post", path: string, body?: object) =>
      s.t.request[method](`/v1/orgs/${s.organizationId}/sites${path}`).set(s.admin.auth).send(body);
    const site = (await api("post", "", { title: "Handbook", spaces: [space.spaceId] }).expect(201)).body;
    await api("post", `/${site.id}/publish`).expect(200);
    // Limits no body meets: every render of the page overruns them.
    await useContentLimits({ ...limits, pool: { ...limits.pool, timeoutMs: 1 } });
    try {
      const attempts = contentEngine().attempts;
      for (let visit = 0; visit < 5; visit++) {
        const page = await supertest(s.t.app).get(`/s/${site.id}/`).expect(200);
        expect(page.text).toContain("This page cannot be shown: The page body takes longer than the 1 ms");
        expect(page.text).toContain('<h1 id="guide">Guide</h1>');
      }
      expect(contentEngine().attempts).toBe(attempts + 1);
    } finally {
      await useContentLimits(limits);
    }
    const page = await supertest(s.t.app).get(`/s/${site.id}/`).expect(200);
    expect(page.text).toContain("Some <strong>bold</strong> text.");
  });

  it("answers 503 with Retry-After once the pool's threads and queue are taken, and /health meanwhile", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await useContentLimits({ ...limits, pool: { ...limits.pool, maxQueue: 0 } });
    try {
      // Sent now (a supertest request waits for its first `then`); a body of its own, not refused before.
      const busy = space.edit(cr.number, [insertPage("Slow", `${slowToParse} `)], s.admin, 422).then();
      // The one thread is taken once the engine has given that body to its pool.
      while (contentEngine().attempts === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const refused = await space.edit(cr.number, [insertPage("Other", "Another **body**.")], s.admin, 503);
      expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
      expectError(refused.body, 503, "busy");
      await supertest(s.t.app).get("/health").expect(200);
      await busy;
      // Nothing was kept of the busy answer: the same body is read once a thread is free.
      await space.edit(cr.number, [insertPage("Other", "Another **body**.")]);
    } finally {
      await useContentLimits(limits);
    }
  });

  it("reads a change request's new bodies once, before a merge (as after a restart): the merge reads none again", async () => {
    const space = await newSpaceContent(s);
    const cr = await space.createChangeRequest();
    await space.edit(cr.number, [insertPage("One", "First **body**."), insertPage("Two", "Second body.")]);
    // A new engine, as after a restart: nothing kept.
    await useContentLimits(limits);
    const engine = contentEngine();
    const { body } = await s.t.request
      .get(`/v1/spaces/${space.spaceId}/change-requests/${cr.id}`)
      .set(s.admin.auth)
      .expect(200);
    await prepareMerge(
      s.t.db,
      { id: space.spaceId, revision_id: (await space.space()).revision ?? "" },
      {
        revision_id: body.revision,
      },
    );
    expect(engine.attempts).toBe(2);
    await space.merge(cr.number);
    expect(engine.attempts).toBe(2);
  });
});
