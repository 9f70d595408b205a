import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { generateSecretKey } from "../auth/secret-key.js";

/**
 * The servers the benchmark measures, each run in a child process of its own so that the load
 * generator does not share their event loop. The child reads its target as JSON on stdin, writes
 * its port as a JSON line on stdout, then a line with its resident memory on each SIGUSR2. Each
 * target imports only what it runs, so that the memory figures compare the servers and not the
 * modules loaded beside them.
 *
 * No IPC channel, as in production: in a child forked with one, Quire answered 9–27% fewer
 * requests (its `process.nextTick` took 4.3% of the samples instead of 0.8%), while Express and
 * node:http, and a small server with Quire's async shape, answered as many. We did not find why.
 */
export type Target =
  | { kind: "quire"; database: string; validateResponses: boolean }
  | { kind: "raw" | "express"; responses: Record<string, unknown> };

export type TargetReply = { port: number } | { rss: number };

async function handler(target: Target): Promise<RequestListener> {
  switch (target.kind) {
    case "quire": {
      const [{ serverLogger }, { createApp }, { migrate, openDatabase }, { parseAddressList }] =
        await Promise.all([
          import("../logging.js"),
          import("../app.js"),
          import("../db/database.js"),
          import("../net/fetch.js"),
        ]);
      const db = openDatabase({ location: target.database });
      await migrate(db);
      // Request logs written as in production, so that their cost is counted.
      const logger = serverLogger("info", "/dev/null");
      return createApp({
        db,
        logger,
        validateResponses: target.validateResponses,
        secretKey: generateSecretKey(),
        // As in production, URLs given by users reach private addresses only if the environment says so.
        network: { allowedPrivateAddresses: parseAddressList(process.env.QUIRE_FETCH_ALLOW_PRIVATE ?? "") },
      });
    }
    case "express": {
      // The same JSON Quire answers, from memory: the ceiling for an Express server on this machine.
      const { default: express } = await import("express");
      const app = express();
      app.get("/{*path}", (req, res) => {
        const response = target.responses[req.originalUrl];
        // A page's HTML is sent as HTML, as Quire sends it; the rest as JSON.
        if (typeof response === "string") res.type("html").send(response);
        else res.json(response);
      });
      return app;
    }
    case "raw":
      // And the ceiling for Node itself.
      return (req, res) => {
        const response = target.responses[req.url ?? ""];
        const html = typeof response === "string";
        const body = html ? response : JSON.stringify(response);
        res.writeHead(200, {
          "content-type": html ? "text/html; charset=utf-8" : "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(body),
        });
        res.end(body);
      };
  }
}

const reply = (message: TargetReply) => process.stdout.write(`${JSON.stringify(message)}\n`);

let input = "";
for await (const chunk of process.stdin) input += chunk;
const server = createServer(await handler(JSON.parse(input) as Target));
process.on("SIGUSR2", () => reply({ rss: process.memoryUsage().rss }));
server.listen(0, "127.0.0.1", () => reply({ port: (server.address() as AddressInfo).port }));
