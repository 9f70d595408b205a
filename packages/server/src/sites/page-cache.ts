import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { RecentlyUsed } from "../content/recently-used.js";
import { type Db, writesTo } from "../db/database.js";

/**
 * How long a kept page is served without reading the database again, when nothing was written
 * through this process meanwhile. Another process's change (several servers on one PostgreSQL)
 * therefore shows within this time, as a revoked token stops working (`TOKEN_CACHE_TTL_MS`).
 */
export const PAGE_CHECK_WINDOW_MS = 1000;
const MAX_BYTES = 32 * 1024 * 1024;

const compressors = {
  br: promisify(brotliCompress),
  gzip: promisify(gzip),
} as const;
type Encoding = keyof typeof compressors;
const COMPRESSION_OPTIONS = {
  br: { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } },
  gzip: { level: 9 },
} as const;

/** A page as sent: its HTML, its headers, and what it was made from. */
interface KeptPage {
  /** A digest of everything the HTML was made from (see `fingerprintOf`). */
  fingerprint: string;
  html: Buffer;
  etag: string;
  headers: Readonly<Record<string, string>>;
  /** The HTML compressed, made once each on the first request that accepts it. */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
  /** When it was last found current (`performance.now()`), and the database's write count then. */
  checkedAt: number;
  writes: number;
  /** When the visitor token it was made for expires (seconds since the epoch): never served after. */
  expiresAt?: number;
}

/** What a page is sent as: an encoding the request accepts, or the HTML as is. */
export interface PageAnswer {
  body: Buffer;
  encoding?: Encoding;
  etag: string;
  headers: Readonly<Record<string, string>>;
}

const caches = new WeakMap<Db, PageCache>();

/** The process's page cache over `db`: one for the routes that fill it and the answers that read it. */
export function pageCacheOf(db: Db): PageCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new PageCache(db);
    caches.set(db, cache);
  }
  return cache;
}

/** A digest of what a page is made from: equal digests, equal pages. */
export const fingerprintOf = (inputs: unknown): string =>
  createHash("sha256").update(JSON.stringify(inputs)).digest("base64url");

/**
 * Published pages as rendered, by what asks for them (host, path, share key, visitor token), so
 * that a page read again costs no database read, no rendering and no compression:
 * - within `PAGE_CHECK_WINDOW_MS` of being found current, while nothing was written to the
 *   database through this process, a kept page is sent as is (`fresh`);
 * - after that, the caller reads the site again and sends the kept page if what it is made from
 *   has not changed (`current`), else renders it anew (`keep`).
 */
export class PageCache {
  readonly #pages = new RecentlyUsed<KeptPage>(MAX_BYTES, (page) => page.html.length * 2);

  constructor(
    private readonly db: Db,
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  /** The database's write count, read before reading what a page is made from. */
  writes(): number | undefined {
    return writesTo(this.db);
  }

  /** The page kept for `key` if it needs no check yet, for a visitor whose clock reads `nowSeconds`. */
  async fresh(key: string, nowSeconds: number, accepted: readonly string[]): Promise<PageAnswer | undefined> {
    const page = this.#pages.get(key);
    if (!page || page.writes !== this.writes() || this.now() - page.checkedAt > PAGE_CHECK_WINDOW_MS)
      return undefined;
    if (page.expiresAt !== undefined && page.expiresAt <= nowSeconds) return undefined;
    return this.#answer(page, accepted);
  }

  /** The page kept for `key` if it was made from the same as `fingerprint`; then current again. */
  async current(
    key: string,
    fingerprint: string,
    writes: number | undefined,
    accepted: readonly string[],
  ): Promise<PageAnswer | undefined> {
    const page = this.#pages.get(key);
    if (!page || page.fingerprint !== fingerprint || writes === undefined) return undefined;
    page.checkedAt = this.now();
    page.writes = writes;
    return this.#answer(page, accepted);
  }

  /** Keeps a page rendered from what `fingerprint` digests, read when the count was `writes`. */
  async keep(
    key: string,
    page: { fingerprint: string; html: string; headers: Record<string, string>; expiresAt?: number },
    writes: number | undefined,
    accepted: readonly string[],
  ): Promise<PageAnswer> {
    const html = Buffer.from(page.html);
    const kept: KeptPage = {
      ...page,
      html,
      // Weak: the one tag stands for the page in each of its encodings.
      etag: `W/"${createHash("sha256").update(html).digest("base64url").slice(0, 27)}"`,
      encoded: {},
      checkedAt: this.now(),
      writes: writes ?? Number.NaN,
    };
    // Without a write count (a database opened elsewhere) nothing is kept: nothing could tell it stale.
    if (writes !== undefined) this.#pages.set(key, kept);
    return this.#answer(kept, accepted);
  }

  async #answer(page: KeptPage, accepted: readonly string[]): Promise<PageAnswer> {
    const { etag, headers } = page;
    const encoding = (["br", "gzip"] as const).find((name) => accepted.includes(name));
    if (!encoding) return { body: page.html, etag, headers };
    page.encoded[encoding] ??= compressors[encoding](page.html, COMPRESSION_OPTIONS[encoding]);
    return { body: await page.encoded[encoding], encoding, etag, headers };
  }
}

/**
 * The content codings a request's `Accept-Encoding` accepts (RFC 9110 §12.5.3), less those it
 * refuses with `q=0`; the cache sends brotli when accepted, else gzip, whatever their weights.
 */
export function acceptedEncodings(header: string | undefined): string[] {
  if (!header) return [];
  return header.split(",").flatMap((part) => {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    const weight = parameters.find((parameter) => parameter.startsWith("q="));
    return weight !== undefined && Number(weight.slice(2)) === 0 ? [] : [name.toLowerCase()];
  });
}

/** Whether `If-None-Match` names the page's tag (compared weakly, as a GET's is: RFC 9110 §13.1.2). */
function unchanged(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** Sends a page as the cache gives it: compressed when the request accepts it, 304 when unchanged. */
export function sendPage(req: IncomingMessage, res: ServerResponse, answer: PageAnswer): void {
  const headers: Record<string, string | number> = {
    ...answer.headers,
    ETag: answer.etag,
    Vary: "Accept-Encoding",
  };
  if (unchanged(req.headers["if-none-match"], answer.etag)) {
    res.writeHead(304, headers).end();
    return;
  }
  headers["Content-Type"] = "text/html; charset=utf-8";
  headers["Content-Length"] = answer.body.length;
  if (answer.encoding) headers["Content-Encoding"] = answer.encoding;
  res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : answer.body);
}
