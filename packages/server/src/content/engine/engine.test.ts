import { afterAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../../config.js";
import { ApiError } from "../../http/errors.js";
import { ContentEngine, defaultContentLimits } from "./index.js";
import { nestingDepth } from "./nesting.js";

const engine = new ContentEngine({
  maxNesting: 20,
  // Room for a new thread to load its modules on a busy CI machine; the slow body takes far longer.
  pool: { threads: 1, maxQueue: 4, timeoutMs: 2_500, memoryMb: 64 },
  pdf: { threads: 1, maxQueue: 1, timeoutMs: 1_000, memoryMb: 64 },
  cacheBytes: 1024 * 1024,
});
afterAll(() => engine.close());

/** Thousands of emphasis delimiters in one paragraph: the parser's time grows with their square. */
const slowToParse = "*a**".repeat(40_000);

describe("the content engine", { timeout: 30_000 }, () => {
  it("reads a body's title, links and sections in one parse", async () => {
    const analysis = await engine.analyze(
      "# Guide\n\nSee [setup](./setup.md#install) and ![logo](/files/f1).\n\n## Install\n\nRun `x`.\n\n## Install\n\n[ref]: https://example.com\n",
    );
    expect(analysis.leadingTitle).toEqual({ title: "Guide", bodyStart: 9 });
    expect(analysis.links).toEqual(["./setup.md#install", "/files/f1", "https://example.com"]);
    expect(analysis.sections.map((s) => s.anchor)).toEqual(["", "guide", "install", "install-1"]);
  });

  it("renders sanitized HTML whose headings carry their sections' anchors", async () => {
    const html = await engine.renderHtml(
      '## Install\n\n<script>alert(1)</script>\n\n## Install\n\n<a href="javascript:x">x</a>',
    );
    expect(html).toContain(
      '<h2 id="install">Install<a href="#install" class="permalink" aria-label="Link to this section">#</a></h2>',
    );
    expect(html).toContain(
      '<h2 id="install-1">Install<a href="#install-1" class="permalink" aria-label="Link to this section">#</a></h2>',
    );
    expect(html).not.toContain("<script");
    expect(html).not.toContain("javascript:");
  });

  it("refuses a body nesting past the limit before parsing it, with 422", async () => {
    const refusal = await engine.analyze(`${"> ".repeat(21)}deep`).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 422, type: "content_too_complex" });
    expect((refusal as ApiError).message).toContain("nests 21 levels deep");
  });

  it("refuses a body that takes longer than the limit, once: later requests get the same refusal at once", async () => {
    await expect(engine.renderHtml(slowToParse)).rejects.toMatchObject({ status: 422 });
    const attempts = engine.attempts;
    await expect(engine.renderHtml(slowToParse)).rejects.toThrow(/longer than the 2500 ms/);
    expect(engine.attempts).toBe(attempts);
    await expect(engine.analyze("fine")).resolves.toMatchObject({ links: [] });
  });

  it("processes a body asked for by several requests at once only once", async () => {
    const body = `# Shared\n\n${"text ".repeat(1000)}`;
    const attempts = engine.attempts;
    const results = await Promise.all(Array.from({ length: 5 }, () => engine.renderHtml(body)));
    expect(new Set(results).size).toBe(1);
    expect(engine.attempts).toBe(attempts + 1);
  });
});

describe("nestingDepth", () => {
  it("counts quotes, list markers, indentation under them and brackets in a paragraph", () => {
    expect(nestingDepth("plain\ntext")).toBe(0);
    expect(nestingDepth("> > > quoted")).toBe(3);
    expect(nestingDepth("- a\n  - b\n    - c")).toBe(3);
    expect(nestingDepth("- - - - x")).toBe(4);
    expect(nestingDepth("[[[x]]]\n\n[y]")).toBe(3);
    expect(nestingDepth("\\[\\[\\[ escaped")).toBe(0);
  });
});

describe("the content limits from the environment", () => {
  it("default, take positive whole numbers, and refuse anything else", () => {
    expect(configFromEnv({}).content).toEqual(defaultContentLimits);
    const content = configFromEnv({
      QUIRE_CONTENT_THREADS: "4",
      QUIRE_CONTENT_TIMEOUT_MS: "2000",
      QUIRE_CONTENT_MAX_NESTING: "50",
      QUIRE_PDF_MEMORY_MB: "512",
    }).content;
    expect(content).toMatchObject({
      maxNesting: 50,
      pool: { threads: 4, timeoutMs: 2000 },
      pdf: { memoryMb: 512, timeoutMs: defaultContentLimits.pdf.timeoutMs },
    });
    expect(() => configFromEnv({ QUIRE_CONTENT_TIMEOUT_MS: "-1" })).toThrow(
      'QUIRE_CONTENT_TIMEOUT_MS must be a positive whole number, not "-1"',
    );
  });
});
