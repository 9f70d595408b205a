import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { PdfPage } from "./render.js";

/**
 * Rendering a PDF is synchronous layout work, about 6 ms a page: it runs in a worker thread so that
 * the server keeps answering meanwhile. One worker, started on the first export, renders one PDF
 * after another; idle, it does not keep the process alive.
 */

// The worker imports render.ts or render.js beside this file: the source under the tests (Node
// strips its types), the build in production.
const renderModule = new URL(`./render${extname(fileURLToPath(import.meta.url))}`, import.meta.url).href;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const loaded = import(workerData.renderModule);
parentPort.on("message", async ({ id, title, pages }) => {
  try {
    const { renderPdf } = await loaded;
    parentPort.postMessage({ id, bytes: await renderPdf(title, pages) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.stack) || error) });
  }
});`;

type Reply = { id: number; bytes: Uint8Array } | { id: number; error: string };

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (bytes: Buffer) => void; reject: (error: Error) => void }>();

function failAll(error: Error) {
  for (const { reject } of pending.values()) reject(error);
  pending.clear();
  worker = undefined;
}

function started(): Worker {
  if (worker) return worker;
  const created = new Worker(WORKER_SOURCE, { eval: true, workerData: { renderModule } });
  created.on("message", (reply: Reply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (pending.size === 0) created.unref();
    if ("error" in reply) waiting.reject(new Error(`PDF rendering failed: ${reply.error}`));
    else waiting.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
  });
  created.on("error", failAll);
  created.on("exit", (code) => failAll(new Error(`the PDF worker exited (code ${code})`)));
  worker = created;
  return created;
}

/** The pages as a PDF (see `renderPdf`), rendered off the event loop. */
export function renderPdfInWorker(title: string, pages: readonly PdfPage[]): Promise<Buffer> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Referenced while it has work, so that the process waits for it; idle, it holds nothing up.
    const running = started();
    running.ref();
    running.postMessage({ id, title, pages });
  });
}
