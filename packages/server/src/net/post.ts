import { timestamp } from "../db/codecs.js";
import { FetchError, type Fetcher } from "./fetch.js";

/** What is read of a receiver's answer (then dropped): enough to let it finish a short one. */
const ANSWER_BYTES = 64 * 1024;
/** What is kept of why an attempt failed. */
const ERROR_CHARS = 500;

/** How one attempt to deliver a body went. */
export interface Attempt {
  at: string;
  ok: boolean;
  statusCode?: number;
  durationMs: number;
  error?: string;
}

/**
 * POSTs `body` (signed by the caller, in `headers`) to `url` through the network policy: a 2xx
 * answer is success; any other answer (redirects are not followed), no answer in time, or an address
 * the policy refuses is a failure, with why. Webhooks and integration events deliver with it.
 */
export async function postDelivery(
  fetcher: Fetcher,
  url: string,
  body: string,
  headers: Record<string, string>,
  { now, timeoutMs, signal }: { now: Date; timeoutMs: number; signal?: AbortSignal },
): Promise<Attempt> {
  const at = timestamp(now);
  const started = performance.now();
  try {
    const { status, durationMs } = await fetcher.post(url, body, {
      headers: { "content-type": "application/json", ...headers },
      timeoutMs,
      maxBytes: ANSWER_BYTES,
      ...(signal && { signal }),
    });
    if (status >= 200 && status <= 299) return { at, ok: true, statusCode: status, durationMs };
    const redirect = status >= 300 && status <= 399 ? " (redirects are not followed)" : "";
    return {
      at,
      ok: false,
      statusCode: status,
      durationMs,
      error: `The receiver answered ${status}${redirect}.`,
    };
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    return {
      at,
      ok: false,
      durationMs: Math.round(performance.now() - started),
      error: err.message.slice(0, ERROR_CHARS),
    };
  }
}
