import type { Schema } from "@quire/api-types";
import { afterEach, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../net/test-server.js";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";
import {
  assertServerBuilt,
  firstStartCredentials,
  listeningPort,
  type ServerProcess,
  startServerProcess,
  waitFor,
} from "../testing/server-process.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(assertServerBuilt);

const startServer = (database: string): ServerProcess =>
  startServerProcess(
    {
      ...process.env,
      PORT: "0",
      DATABASE_URL: database,
      // The source below is served on loopback, which the server refuses unless told.
      QUIRE_FETCH_ALLOW_PRIVATE: "127.0.0.1",
    },
    (kill) => cleanups.push(kill),
  );

it("a job interrupted by a server restart is taken up again by the restarted server", {
  timeout: 90_000,
}, async () => {
  const database: TestDatabase = await openTestDatabase();
  cleanups.push(() => database.close());
  let answering = false;
  let requests = 0;
  const source: TestServer = await startTestServer((_req, res) => {
    requests += 1;
    // Until the restart, the source holds every request open: the job is stopped mid-way.
    if (answering)
      res.end(JSON.stringify({ openapi: "3.1.0", info: { title: "Pets", version: "1" }, paths: {} }));
  });
  cleanups.push(() => source.close());

  const first = startServer(database.location);
  let base = `http://127.0.0.1:${await listeningPort(first)}`;
  const { organizationId, token } = await firstStartCredentials(first);
  const auth = { Authorization: `Bearer ${token}` };
  const spec = `/v1/orgs/${organizationId}/openapi/pets`;
  const readSpec = async () =>
    (await (await fetch(`${base}${spec}`, { headers: auth })).json()) as Schema<"OpenAPISpec">;

  const created = await fetch(`${base}${spec}`, {
    method: "PUT",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ source: { url: `${source.origin}/pets.json` } }),
  });
  expect(created.status).toBe(201);
  await waitFor(() => (requests > 0 ? true : undefined), "the job to fetch the source");
  expect((await readSpec()).processingState).toBe("progress");

  first.child.kill("SIGTERM");
  expect(await first.exited).toBe(0);
  expect(first.output()).toContain("released");

  answering = true;
  const second = startServer(database.location);
  base = `http://127.0.0.1:${await listeningPort(second)}`;
  const processed = await waitFor(async () => {
    const body = await readSpec();
    return body.processingState === "complete" ? body : undefined;
  }, "the restarted server to process the specification");
  expect(processed).toMatchObject({ lastVersion: expect.any(String) });
  expect(processed).not.toHaveProperty("lastProcessErrorCode");
});
