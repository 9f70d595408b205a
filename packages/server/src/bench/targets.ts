import type { AddressInfo } from "node:net";
import express from "express";
import { createApp } from "../app.js";
import { migrate, openDatabase } from "../db/database.js";

/**
 * The servers the benchmark measures, each run in a child process of its own so that the load
 * generator does not share their event loop. The child reports its port over IPC.
 */
type Target = { kind: "quire"; database: string } | { kind: "plain"; responses: Record<string, unknown> };

async function serve(target: Target) {
  if (target.kind === "quire") {
    const db = openDatabase({ location: target.database });
    await migrate(db);
    return createApp({ db, validateResponses: false });
  }
  const app = express();
  // The same JSON Quire answers, from memory: the ceiling for any Express server on this machine.
  app.get("/{*path}", (req, res) => {
    res.json(target.responses[req.originalUrl]);
  });
  return app;
}

process.once("message", async (target: Target) => {
  const app = await serve(target);
  const server = app.listen(0, "127.0.0.1", () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
});
