import { timestamp } from "../db/codecs.js";
import { jobType } from "../jobs/queue.js";
import { type AnyTask, defineTask } from "../jobs/runner.js";
import { FetchError, type Fetcher } from "../net/fetch.js";
import { checkOpenApiDocument } from "./document.js";
import {
  type ProcessingOutcome,
  processOpenApiSpec,
  queueRefreshes,
  recordOutcome,
  type SpecSource,
  startProcessing,
} from "./store.js";

/** GitBook re-fetches URL sources every 6 hours. */
export const REFRESH_AFTER_MS = 6 * 60 * 60 * 1000;
const REFRESH_CHECK_EVERY_MS = 10 * 60 * 1000;
const REFRESH_BATCH = 100;
const MAX_SOURCE_BYTES = 10 * 1024 * 1024;
const ACCEPT = "application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.8";

const refreshOpenApiSpecs = jobType<Record<string, never>>("openapi-specs.refresh");

export interface ProcessingOptions {
  /** Fetches URL sources; its network policy decides which addresses they may point to. */
  fetcher: Fetcher;
  fetchTimeoutMs?: number;
}

/**
 * The tasks of this area: processing a specification's source (pending -> progress -> complete),
 * and, periodically, queueing again the URL sources last processed more than 6 hours ago.
 */
export function openApiSpecTasks({ fetcher, fetchTimeoutMs = 30_000 }: ProcessingOptions): AnyTask[] {
  async function outcomeOf(source: SpecSource, signal: AbortSignal): Promise<ProcessingOutcome> {
    let content = source.source_text ?? "";
    let url: string | null = null;
    if (source.source_url !== null) {
      try {
        ({ text: content, url } = await fetcher.text(source.source_url, {
          timeoutMs: fetchTimeoutMs,
          maxBytes: MAX_SOURCE_BYTES,
          accept: ACCEPT,
          signal,
        }));
      } catch (err) {
        if (!(err instanceof FetchError)) throw err;
        // The one error that stopped the processing.
        return {
          ok: false,
          errorCode: err.timedOut ? "FETCH_TIMEOUT" : "FETCH_ERROR",
          reason: err.message,
          errorCount: 1,
        };
      }
    }
    const check = await checkOpenApiDocument(content);
    if (!check.valid)
      return { ok: false, errorCode: "PARSE_ERROR", reason: check.reason, errorCount: check.errorCount };
    return { ok: true, content, url, version: check.version };
  }

  return [
    defineTask(processOpenApiSpec, {
      async run({ specId, revision }, job) {
        const source = await startProcessing(job.db, specId, revision);
        if (!source) return;
        const outcome = await outcomeOf(source, job.signal);
        job.logger.info(
          outcome.ok
            ? { specId, version: outcome.version, url: outcome.url }
            : { specId, errorCode: outcome.errorCode, reason: outcome.reason },
          "processed an OpenAPI specification",
        );
        await job.commit((tx) => recordOutcome(tx, job, specId, revision, outcome));
      },
    }),
    defineTask(refreshOpenApiSpecs, {
      everyMs: REFRESH_CHECK_EVERY_MS,
      async run(_payload, job) {
        const cutoff = timestamp(job.clock.now(), -REFRESH_AFTER_MS);
        // In batches, so that no transaction holds many rows for long.
        let queued: number;
        do {
          queued = await job.db.transaction().execute((tx) => queueRefreshes(tx, job, cutoff, REFRESH_BATCH));
        } while (queued === REFRESH_BATCH);
      },
    }),
  ];
}
