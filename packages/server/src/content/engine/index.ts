import type { JSONDocument } from "@quire/api-types";
import { ApiError, badRequest } from "../../http/errors.js";
import { PoolBusy, type PoolLimits, siblingModule, WorkerPool, WorkOverrun } from "../../workers/pool.js";
import { contentHash } from "../hash.js";
import { RecentlyUsed } from "../recently-used.js";
import { documentDepth, type MarkdownOutcome } from "./document-model.js";
import type { FrontMatterChanges } from "./front-matter-edit.js";
import type { Analysis, RenderInput } from "./markdown.js";
import { nestingDepth } from "./nesting.js";

export type { DocumentBlock, DocumentNode, JSONDocument } from "@quire/api-types";
export type { FrontMatterChanges } from "./front-matter-edit.js";
export type { FrontMatter, MetaLinkTarget } from "./gitbook.js";
export type { Analysis, Section } from "./markdown.js";

/** What a page body may cost the server. */
export interface ContentLimits {
  /** The deepest nesting of quotes, lists and brackets accepted (see `nestingDepth`). */
  maxNesting: number;
  /** The pool that parses, renders and converts bodies: its threads, queue, and per-body time and memory. */
  pool: PoolLimits;
  /** The pool that lays out PDFs, larger documents than a body: one at a time by default. */
  pdf: PoolLimits;
  /** Memory held by cached analyses and renders, in bytes. */
  cacheBytes: number;
}

export const defaultContentLimits: ContentLimits = {
  maxNesting: 100,
  // A refused body answers within 5 s: the time limit, and the rest of the request.
  // Threads kept a minute between tasks: page reads (GitBook's document) need one on a quiet server too.
  pool: { threads: 2, maxQueue: 64, timeoutMs: 4_000, memoryMb: 256, idleMs: 60_000 },
  pdf: { threads: 1, maxQueue: 16, timeoutMs: 20_000, memoryMb: 192 },
  cacheBytes: 64 * 1024 * 1024,
};

const markdownModule = siblingModule(import.meta.url, "markdown");
const documentModule = siblingModule(import.meta.url, "document");
const diffModule = siblingModule(import.meta.url, "diff");
const frontMatterModule = siblingModule(import.meta.url, "front-matter-edit");

/** Levels of document nodes per level of Markdown nesting: a list level is a list and its item. */
const DOCUMENT_LEVELS_PER_NESTING = 4;

/** What an empty body reads as (see `analyze` in markdown.ts), and a refused one with `refusedAsEmpty`. */
const EMPTY_ANALYSIS: Analysis = {
  links: [],
  sections: [{ anchor: "", heading: "", depth: 0, text: "" }],
  anchors: [],
};

type Outcome<T> = { value: T } | { refused: ApiError };

/** What an outcome holds in memory, roughly. */
function weightOf(outcome: Outcome<unknown>): number {
  if (!("value" in outcome)) return 256;
  const { value } = outcome;
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === "string") return value.length * 2;
  return JSON.stringify(value).length * 2;
}

export type PoolName = "content" | "pdf";

/** A function of a module, its input, and the page bodies in it (their nesting checked first). */
interface Task {
  module: URL;
  name: string;
  input: { value: unknown } | { load: () => Promise<unknown> };
  bodies: readonly string[];
  /** What the input is, for a refusal's message. */
  what: string;
  /** One task over many bodies: see `process`. */
  many: boolean;
}

/** A task over many bodies (a repository's pages) may take the pool's time limit once per this many. */
const BODIES_PER_TIME_LIMIT = 200;

/**
 * The one way the server reads page bodies: each body is parsed once, in a worker thread within the
 * limits, and what it gave is kept by the body's hash (bodies never change under a hash), as is a
 * refusal, so that visitors of a body that cannot be processed cost one attempt in all, and requests
 * for a body already being processed wait for that one. Nothing here parses on the event loop.
 */
export class ContentEngine {
  readonly #pools: Record<PoolName, WorkerPool>;
  readonly #done: RecentlyUsed<Outcome<unknown>>;
  readonly #running = new Map<string, Promise<Outcome<unknown>>>();
  #attempts = 0;

  constructor(readonly limits: ContentLimits = defaultContentLimits) {
    this.#pools = { content: new WorkerPool(limits.pool), pdf: new WorkerPool(limits.pdf) };
    this.#done = new RecentlyUsed(limits.cacheBytes, weightOf);
  }

  /** How many tasks the engine has given its pools: what its cache and sharing did not spare. */
  get attempts(): number {
    return this.#attempts;
  }

  /** Links, sections and leading title of a body. 422 when it cannot be processed within the limits. */
  analyze(markdown: string): Promise<Analysis> {
    return this.process("content", markdownModule, "analyze", { value: markdown }, { bodies: [markdown] });
  }

  /**
   * The analyses of many bodies, in their order, never more at once than the pool has threads (so a
   * large import queues behind no one's request and never fills the queue itself). A refused body
   * fails the whole, unless `refusedAsEmpty`: then it reads as an empty body (no links, one untitled
   * section), for readers of bodies stored before today's limits.
   */
  async analyzeAll(
    bodies: readonly string[],
    { refusedAsEmpty = false }: { refusedAsEmpty?: boolean } = {},
  ): Promise<Analysis[]> {
    const analyses: Analysis[] = new Array(bodies.length);
    let next = 0;
    const analyzed = (body: string) =>
      refusedAsEmpty
        ? this.analyze(body).catch((error: unknown) => {
            if (error instanceof ApiError && error.status === 422) return EMPTY_ANALYSIS;
            throw error;
          })
        : this.analyze(body);
    const lane = async () => {
      for (let i = next++; i < bodies.length; i = next++) analyses[i] = await analyzed(bodies[i] as string);
    };
    await Promise.all(Array.from({ length: Math.min(this.limits.pool.threads, bodies.length) }, lane));
    return analyses;
  }

  /**
   * The body as sanitized HTML, headings with their anchors as ids, links and images where `rewrite`
   * says (see `RenderInput`): kept per body and rewrite, the context a revision gives. 422 as `analyze`.
   */
  renderHtml(markdown: string, rewrite: Readonly<Record<string, string>> = {}): Promise<string> {
    return this.process(
      "content",
      markdownModule,
      "renderHighlightedHtml",
      { value: { markdown, rewrite } satisfies RenderInput },
      {
        bodies: [markdown],
      },
    );
  }

  /**
   * The body with its URLs where `rewrite` says, its text otherwise as written (see `markdownWithUrls`
   * in markdown.ts): kept per body and rewrite. 422 as `analyze`.
   */
  markdownWithUrls(markdown: string, rewrite: Readonly<Record<string, string>>): Promise<string> {
    return this.process(
      "content",
      markdownModule,
      "markdownWithUrls",
      { value: { markdown, rewrite } satisfies RenderInput },
      { bodies: [markdown] },
    );
  }

  /** The body as GitBook's JSON document (see document.ts). 422 as `analyze`. */
  toDocument(markdown: string): Promise<JSONDocument> {
    return this.process("content", documentModule, "toDocument", { value: markdown }, { bodies: [markdown] });
  }

  /** The line changes between two page bodies as unified-diff hunks (see diff.ts). 422 past the limits. */
  textDiff(before: string, after: string): Promise<string> {
    return this.process(
      "content",
      diffModule,
      "unifiedDiff",
      { value: { before, after } },
      { what: "change" },
    );
  }

  /** `body` with `changes` made to its front matter (see `editFrontMatter`). */
  withFrontMatter(
    body: string,
    changes: FrontMatterChanges,
    options: { keepWritten: boolean },
  ): Promise<string> {
    return this.process(
      "content",
      frontMatterModule,
      "editFrontMatter",
      { value: { body, changes, keepWritten: options.keepWritten } },
      { bodies: [body], what: "page body" },
    );
  }

  /**
   * GitBook's JSON document as Markdown, GitBook's blocks written as Git Sync writes them. With the
   * `previous` body of the page, the blocks the document did not change keep their text byte for byte,
   * and its front matter stays (a document has none). 400 when the document is not one of GitBook's.
   */
  async fromDocument(document: JSONDocument, previous?: string): Promise<string> {
    const depth = documentDepth(document);
    const deepest = this.limits.maxNesting * DOCUMENT_LEVELS_PER_NESTING;
    if (depth > deepest)
      throw tooComplex(`The document nests ${depth} nodes deep; the server accepts up to ${deepest}.`);
    const outcome = await this.process<MarkdownOutcome>(
      "content",
      documentModule,
      "fromDocument",
      { value: { document, ...(previous !== undefined && { previous }) } },
      { bodies: previous === undefined ? [] : [previous], what: "document" },
    );
    if ("invalid" in outcome) throw badRequest(outcome.invalid);
    return outcome.markdown;
  }

  /**
   * The result of function `name` of `module` (an area's renderer or converter, which may parse) on
   * `input`, computed in one of the engine's pools once per input, after the nesting of the page bodies
   * in `bodies` is checked. 422 when the input (`what`, for the message) cannot be processed within the
   * limits, 503 when the pool is full. An input costly to gather (file bytes) may come as `load`, called
   * only when the result is not kept yet, with `identity` standing for it in the cache (a text that
   * differs whenever the input would). With `many`, one task reads all of `bodies` (a repository's
   * pages): its time limit grows with their number, the pool's limit again every 200 bodies.
   */
  async process<Result>(
    pool: PoolName,
    module: URL,
    name: string,
    input: { value: unknown } | { load: () => Promise<unknown>; identity: string },
    {
      bodies = [],
      what = "page body",
      many = false,
    }: { bodies?: readonly string[]; what?: string; many?: boolean } = {},
  ): Promise<Result> {
    const identity =
      "identity" in input
        ? input.identity
        : typeof input.value === "string"
          ? input.value
          : JSON.stringify(input.value);
    const key = `${module.href} ${name} ${contentHash(identity)}`;
    const task = { module, name, input, bodies, what, many };
    const outcome = this.#done.get(key) ?? (await (this.#running.get(key) ?? this.#start(key, pool, task)));
    if ("refused" in outcome) throw outcome.refused;
    return outcome.value as Result;
  }

  /** Starts the one attempt for `key`, which every request for it waits on; its outcome is kept. */
  #start(key: string, pool: PoolName, task: Task): Promise<Outcome<unknown>> {
    const running = this.#attempt(this.#pools[pool], task).then(
      (outcome) => {
        this.#done.set(key, outcome);
        this.#running.delete(key);
        return outcome;
      },
      (error: unknown) => {
        this.#running.delete(key);
        throw error;
      },
    );
    this.#running.set(key, running);
    return running;
  }

  /** 422 unless the body nests within the limit: a check of its text, made before anything parses it. */
  assertNestingWithin(markdown: string): void {
    const depth = nestingDepth(markdown);
    if (depth > this.limits.maxNesting)
      throw tooComplex(
        `The page body nests ${depth} levels deep (quotes, lists or brackets); the server accepts up to ${this.limits.maxNesting}.`,
      );
  }

  /** One attempt: its value or, when the body is at fault, its refusal (kept). A busy pool throws (not kept). */
  async #attempt(pool: WorkerPool, task: Task): Promise<Outcome<unknown>> {
    const { module, name, input, bodies, what, many } = task;
    try {
      for (const body of bodies) this.assertNestingWithin(body);
      const value = "load" in input ? await input.load() : input.value;
      this.#attempts++;
      const limits = many ? 1 + Math.floor(bodies.length / BODIES_PER_TIME_LIMIT) : 1;
      return { value: await pool.run(module, name, value, pool.limits.timeoutMs * limits) };
    } catch (error) {
      if (error instanceof ApiError) return { refused: error };
      if (error instanceof WorkOverrun) return { refused: overrunRefusal(error, what) };
      if (error instanceof PoolBusy)
        throw new ApiError(503, "The server is busy processing content; retry shortly.", {
          headers: { "retry-after": String(error.retryAfterSeconds) },
        });
      throw error;
    }
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.#pools).map((pool) => pool.close()));
  }
}

function tooComplex(message: string): ApiError {
  return new ApiError(422, message, { type: "content_too_complex" });
}

function overrunRefusal({ overrun, limits }: WorkOverrun, what: string): ApiError {
  const why = {
    time: `takes longer than the ${limits.timeoutMs} ms the server allows to process one`,
    memory: `needs more than the ${limits.memoryMb} MiB the server allows to process one`,
    stack: "nests too deeply to process",
  }[overrun];
  return tooComplex(`The ${what} ${why}; simplify it (split it, or nest less).`);
}

let engine: ContentEngine | undefined;

/**
 * The process's content engine: one pool and one cache for every consumer, whichever app or task asks.
 * Built with the default limits on first use, unless `useContentLimits` set others first.
 */
export function contentEngine(): ContentEngine {
  engine ??= new ContentEngine();
  return engine;
}

/** Sets the limits of the process's content engine (at start-up, from the configuration; tests lower them). */
export async function useContentLimits(limits: ContentLimits): Promise<void> {
  const previous = engine;
  engine = new ContentEngine(limits);
  await previous?.close();
}
