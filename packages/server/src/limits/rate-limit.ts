import { createHash } from "node:crypto";
import { PostgresAdapter, sql } from "kysely";
import type { Db } from "../db/database.js";

/** How many requests a token may send per window. */
export interface RateLimitPolicy {
  limit: number;
  windowMs: number;
}

/** Where a token stands in its window: what the `RateLimit` headers tell, and whether it may go on. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
}

interface Counter {
  window: number;
  /** The count all processes had reached when this process last asked (PostgreSQL), or 0. */
  known: number;
  /** Requests this process counted that the database has not been told of yet. */
  pending: number;
}

/** How often a process adds its counts to the shared ones, and learns the others'. */
const SYNC_INTERVAL_MS = 1000;

const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/**
 * Counts each token's requests in fixed windows. A process counts in memory, so that a request
 * costs no query; on PostgreSQL, processes add their counts up in `rate_limit_windows`: on a
 * token's first request of a window, every second, and on every request once the token is past
 * half its limit. Together they allow the limit, not the limit per process, give or take what
 * other processes counted since their last sync (at most a second's worth, and half the limit).
 */
export class RateLimiter {
  readonly #counters = new Map<string, Counter>();
  readonly #shared: Db | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    db: Db,
    readonly policy: RateLimitPolicy,
    readonly now: () => number = Date.now,
  ) {
    this.#shared = db.getExecutor().adapter instanceof PostgresAdapter ? db : undefined;
    if (this.#shared) {
      this.#timer = setInterval(() => void this.sync().catch(() => {}), SYNC_INTERVAL_MS);
      this.#timer.unref();
    }
  }

  /** Counts one request of `token` and tells where it stands. */
  async take(token: string): Promise<RateLimitState> {
    const { limit, windowMs } = this.policy;
    const now = this.now();
    const window = Math.floor(now / windowMs);
    let counter = this.#counters.get(token);
    const first = counter?.window !== window;
    if (!counter || first) {
      counter = { window, known: 0, pending: 0 };
      this.#counters.set(token, counter);
    }
    counter.pending += 1;
    // The first request of a window learns what other processes counted; past half the limit,
    // every request is counted where all processes see it.
    if (this.#shared && (first || counter.known + counter.pending > limit / 2))
      await this.#add(token, counter);
    const count = counter.known + counter.pending;
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.ceil(((window + 1) * windowMs - now) / 1000),
    };
  }

  /** Adds every pending count to the shared ones and forgets past windows (PostgreSQL only). */
  async sync(): Promise<void> {
    const window = Math.floor(this.now() / this.policy.windowMs);
    for (const [token, counter] of this.#counters) {
      if (counter.window !== window) this.#counters.delete(token);
      else if (counter.pending > 0) await this.#add(token, counter);
    }
    await this.#shared
      ?.deleteFrom("rate_limit_windows")
      .where("window_number", "<", window - 1)
      .execute();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #add(token: string, counter: Counter): Promise<void> {
    const db = this.#shared;
    const added = counter.pending;
    if (!db || added === 0) return;
    const row = await db
      .insertInto("rate_limit_windows")
      .values({ token_hash: hashOf(token), window_number: counter.window, count: added })
      .onConflict((oc) =>
        oc
          .columns(["token_hash", "window_number"])
          .doUpdateSet({ count: sql`rate_limit_windows.count + ${added}` }),
      )
      .returning("count")
      .executeTakeFirstOrThrow();
    // Requests counted while the statement ran stay pending, for the next time.
    counter.pending -= added;
    counter.known = row.count;
  }
}
