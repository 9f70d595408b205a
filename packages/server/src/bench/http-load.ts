import { Agent, request } from "node:http";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/**
 * HTTP load sent from a worker thread: a bench that serves its API in its own process keeps the
 * load generator off the server's event loop, as a client elsewhere would be. The client is not
 * free: on PostgreSQL renames, its thread took 215–258 µs of CPU a request (undici's Pool no less),
 * against 550–780 for the server's thread and 440–530 for PostgreSQL.
 */

/** The requests: `method` to one of `paths`, with a JSON body `{ title }`, answered `expect`. */
export interface LoadRequests {
  origin: string;
  token: string;
  method: "PATCH" | "POST";
  /** Writer `w`'s (or request `i`'s) path is `paths[w % paths.length]`. */
  paths: string[];
  expect: number;
}

export type LoadShape =
  /** `writers` sending one request after another for `ms`. */
  | { kind: "closed"; writers: number; ms: number }
  /** `count` requests sent at `rate` a second, each at its time whatever the server does (open loop). */
  | { kind: "rate"; rate: number; count: number };

export interface LoadResult {
  /** Requests answered. */
  finished: number;
  seconds: number;
  /** Open loop: each request's latency in ms, counted from the time it was due. */
  latencies: number[];
}

interface Job {
  requests: LoadRequests;
  shape: LoadShape;
}

/** Sends `shape` of `requests` from a new worker thread; rejects on an unexpected status. */
export function sendLoad(requests: LoadRequests, shape: LoadShape): Promise<LoadResult> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { requests, shape } satisfies Job });
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the load worker exited (code ${code})`)));
  });
}

/** `writers` writers, each running `write(writer, i)` one after another for `ms`: how many finished. */
export async function closedLoop(
  writers: number,
  ms: number,
  write: (writer: number, i: number) => Promise<unknown>,
): Promise<number> {
  const deadline = performance.now() + ms;
  let finished = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let i = 0; performance.now() < deadline; i++) {
        await write(writer, i);
        finished++;
      }
    }),
  );
  return finished;
}

/**
 * Runs `write(0)` … `write(count - 1)` at `rate` a second, each at its time whatever the others do (an
 * open loop, as users send them): each one's latency in ms, counted from its time, so that a system
 * that falls behind shows in them instead of slowing the sender; `write(i)`'s at index i.
 */
export async function openLoop(
  rate: number,
  count: number,
  write: (i: number) => Promise<unknown>,
): Promise<number[]> {
  const started = performance.now();
  const latencies: number[] = [];
  const writes: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    writes.push(
      write(i).then(() => {
        latencies[i] = performance.now() - due;
      }),
    );
  }
  await Promise.all(writes);
  return latencies;
}

/**
 * The rate a second at which writes sent by `openLoop` at `rate` finished, given their latencies (by
 * index): the intervals between them over the time from the first one's due time to the last answer.
 * It is just under `rate` when the system kept up, whatever the time taken before the first write.
 */
export function finishedRate(rate: number, latencies: readonly number[]): number {
  const lastAnswer = Math.max(...latencies.map((latency, i) => (i * 1000) / rate + latency));
  return (latencies.length - 1) / (lastAnswer / 1000);
}

async function load({ requests, shape }: Job): Promise<LoadResult> {
  // As many sockets as requests at once: at a rate, requests that overlap open more than the writers.
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const send = (path: string, title: string) =>
    new Promise<void>((resolve, reject) => {
      const payload = JSON.stringify({ title });
      const req = request(
        `${requests.origin}${path}`,
        {
          method: requests.method,
          agent,
          headers: {
            Authorization: `Bearer ${requests.token}`,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(payload),
          },
        },
        (res) =>
          res
            .resume()
            .on("end", () =>
              res.statusCode === requests.expect
                ? resolve()
                : reject(new Error(`${requests.method} ${path} answered ${res.statusCode}`)),
            ),
      );
      req.on("error", reject).end(payload);
    });
  const pathOf = (n: number) => requests.paths[n % requests.paths.length] as string;
  const started = performance.now();
  let finished = 0;
  let latencies: number[] = [];
  try {
    if (shape.kind === "closed") {
      finished = await closedLoop(shape.writers, shape.ms, (writer, i) =>
        send(pathOf(writer), `API ${writer} ${i}`),
      );
    } else {
      latencies = await openLoop(shape.rate, shape.count, (i) => send(pathOf(i), `API ${i}`));
      finished = shape.count;
    }
  } finally {
    agent.destroy();
  }
  return { finished, seconds: (performance.now() - started) / 1000, latencies };
}

if (!isMainThread && parentPort) parentPort.postMessage(await load(workerData as Job));
