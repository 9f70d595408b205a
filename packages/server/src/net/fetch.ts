import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { get as httpGet, request as httpRequest } from "node:http";
import { get as httpsGet, request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

/**
 * Which addresses the server's own requests (to URLs its users give) may reach. Loopback, private,
 * link-local and other non-public addresses are refused, so that a user cannot make the server
 * read its own network (SSRF), unless listed here.
 */
export interface NetworkPolicy {
  /** IP addresses or CIDR ranges reachable although they are not public. */
  allowedPrivateAddresses: readonly string[];
}

export const publicAddressesOnly: NetworkPolicy = { allowedPrivateAddresses: [] };

/** A comma-separated list of IP addresses and CIDR ranges; throws on an entry that is neither. */
export function parseAddressList(text: string): string[] {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of entries) {
    const [address = "", bits, ...rest] = entry.split("/");
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !validBits || rest.length > 0)
      throw new Error(`"${entry}" is neither an IP address nor a CIDR range`);
  }
  return entries;
}

/** The source could not be fetched; `timedOut` when it took longer than allowed. */
export class FetchError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = "FetchError";
  }
}

export interface FetchOptions {
  /** For the whole of it: every redirect, and the body. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  accept?: string;
  /** Aborting it rejects with its reason, not with a FetchError. */
  signal?: AbortSignal;
}

export interface Fetched {
  text: string;
  /** The URL the text came from, after redirects. */
  url: string;
}

export interface FetchedBytes {
  bytes: Buffer;
  /** The URL the bytes came from, after redirects. */
  url: string;
  /** The answer's `Content-Type` without parameters, lower-cased; "" when it has none. */
  contentType: string;
}

export interface PostOptions {
  headers: Record<string, string>;
  /** For the whole of it: connecting, sending, the answer's head and the part of its body read. */
  timeoutMs: number;
  /**
   * The most of the answer's body read: dropped, the rest not waited for; or, with `keepAnswer`,
   * kept, and a larger answer is a FetchError.
   */
  maxBytes: number;
  /** Whether the answer's head and body are wanted (a request relayed), not only its status. */
  keepAnswer?: boolean;
  /** Aborting it rejects with its reason, not with a FetchError. */
  signal?: AbortSignal;
}

export interface Posted {
  /** The answer's status, whatever it is: a redirect is an answer, not followed. */
  status: number;
  /** From the start of the request to the end of the body read. */
  durationMs: number;
  /** With `keepAnswer`: the answer's headers and whole body. */
  answer?: { headers: IncomingHttpHeaders; body: Buffer };
}

export interface Fetcher {
  /** GETs `url` as UTF-8 text; throws FetchError for anything but a 2xx answer within the limits. */
  text(url: string, options: FetchOptions): Promise<Fetched>;
  /** GETs `url` as bytes, with the same checks and errors as `text`. */
  bytes(url: string, options: FetchOptions): Promise<FetchedBytes>;
  /**
   * POSTs `body` to `url` (webhooks, integration events and requests): any answer resolves with its
   * status; no answer (an address the policy refuses, a connection error, the timeout) throws
   * FetchError.
   */
  post(url: string, body: string, options: PostOptions): Promise<Posted>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * How request-filtering-agent words a refusal (it gives its errors no code). Its message names the
 * address the host resolved to, which must not reach the user: it would map the server's network.
 */
const REFUSAL = /^DNS lookup .* is not allowed/;

/**
 * Fetches through node:http(s) with agents that check every address connected to, after DNS
 * resolution and for raw-IP URLs alike (global fetch would bypass them). Redirects are followed
 * here, one request per hop, so each hop goes through the same check.
 */
export function createFetcher(policy: NetworkPolicy): Fetcher {
  const filter = { allowIPAddressList: [...policy.allowedPrivateAddresses] };
  const http = new RequestFilteringHttpAgent(filter);
  const https = new RequestFilteringHttpsAgent(filter);

  const request = (url: URL, signal: AbortSignal, accept: string) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const get = url.protocol === "https:" ? httpsGet : httpGet;
      const agent = url.protocol === "https:" ? https : http;
      get(url, { agent, signal, headers: { accept, "user-agent": "Quire" } }, resolve).on("error", (err) =>
        reject(
          REFUSAL.test(err.message) ? new FetchError(`The address of ${url.hostname} is not allowed.`) : err,
        ),
      );
    });

  const readBody = async (response: IncomingMessage, maxBytes: number) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        throw new FetchError(`The answer is larger than ${maxBytes} bytes.`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  };

  const fetchBytes = async (
    url: string,
    { timeoutMs, maxBytes, maxRedirects = 5, accept = "*/*", signal }: FetchOptions,
  ): Promise<FetchedBytes> => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const aborted = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      let current = new URL(url);
      for (let hop = 0; ; hop++) {
        if (current.protocol !== "http:" && current.protocol !== "https:")
          throw new FetchError(`Only http and https URLs can be fetched, not ${current.protocol}`);
        const response = await request(current, aborted, accept);
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (REDIRECTS.has(status) && location) {
          response.resume();
          if (hop >= maxRedirects) throw new FetchError(`More than ${maxRedirects} redirects.`);
          current = new URL(location, current);
          continue;
        }
        if (status < 200 || status > 299) {
          response.resume();
          throw new FetchError(`The server answered ${status}.`);
        }
        const contentType =
          (response.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
        return { bytes: await readBody(response, maxBytes), url: current.href, contentType };
      }
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (deadline.aborted) throw new FetchError(`No complete answer within ${timeoutMs} ms.`, true);
      if (err instanceof FetchError) throw err;
      throw new FetchError(err instanceof Error ? err.message : String(err));
    }
  };

  const post = async (
    url: string,
    body: string,
    { headers, timeoutMs, maxBytes, keepAnswer = false, signal }: PostOptions,
  ): Promise<Posted> => {
    const deadline = AbortSignal.timeout(timeoutMs);
    const aborted = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const started = performance.now();
    try {
      const target = new URL(url);
      if (target.protocol !== "http:" && target.protocol !== "https:")
        throw new FetchError(`Only http and https URLs can be posted to, not ${target.protocol}`);
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const agent = target.protocol === "https:" ? https : http;
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = send(
          target,
          {
            method: "POST",
            agent,
            signal: aborted,
            headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
          },
          resolve,
        );
        req.on("error", (err) =>
          reject(
            REFUSAL.test(err.message)
              ? new FetchError(`The address of ${target.hostname} is not allowed.`)
              : err,
          ),
        );
        req.end(body);
      });
      const status = response.statusCode ?? 0;
      if (keepAnswer) {
        const body = await readBody(response, maxBytes);
        const durationMs = Math.round(performance.now() - started);
        return { status, durationMs, answer: { headers: response.headers, body } };
      }
      // Read so that the receiver's answer is complete, but only so far: what it says is not kept.
      let size = 0;
      for await (const chunk of response as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size >= maxBytes) {
          response.destroy();
          break;
        }
      }
      return { status, durationMs: Math.round(performance.now() - started) };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (deadline.aborted) throw new FetchError(`No answer within ${timeoutMs} ms.`, true);
      if (err instanceof FetchError) throw err;
      throw new FetchError(err instanceof Error ? err.message : String(err));
    }
  };

  return {
    post,
    async text(url, options) {
      const { bytes, url: from } = await fetchBytes(url, options);
      return { text: bytes.toString("utf8"), url: from };
    },
    bytes: fetchBytes,
  };
}
