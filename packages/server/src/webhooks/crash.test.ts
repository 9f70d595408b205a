import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "../testing/database.js";
import {
  assertServerBuilt,
  firstStartCredentials,
  listeningPort,
  startServerOn,
  waitFor,
} from "../testing/server-process.js";

/** Short, so that the restarted server takes the dead one's delivery again within seconds. */
const JOB_LEASE_MS = 6_000;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
beforeAll(() => assertServerBuilt());

const startServer = (database: TestDatabase) =>
  startServerOn(
    database,
    {
      QUIRE_FETCH_ALLOW_PRIVATE: "127.0.0.1",
      QUIRE_JOB_LEASE_MS: String(JOB_LEASE_MS),
      // A job's lease must outlast a Git Sync operation's time limit.
      QUIRE_GIT_TIMEOUT_MS: String(JOB_LEASE_MS - 1_000),
      QUIRE_WEBHOOK_TIMEOUT_MS: "1000",
      QUIRE_WEBHOOK_FANOUT_MS: "100",
    },
    (kill) => cleanups.push(kill),
  );

/**
 * A receiver that holds every request while `holding` (the server dies with one open), and otherwise
 * answers 204, counting each event it acknowledged by its `webhook-id`.
 */
async function startReceiver() {
  const state = { holding: true, requests: 0, acknowledged: [] as { id: string; sequence: number }[] };
  const held: ServerResponse[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    state.requests += 1;
    if (state.holding) return void held.push(res);
    state.acknowledged.push({ id: String(req.headers["webhook-id"]), sequence: JSON.parse(body).sequence });
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    for (const res of held) res.destroy();
    server.close();
  });
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

describe("webhook deliveries across server processes", () => {
  it("survive a SIGKILL between an event's commit and its delivery: delivered after the restart, once, in order", {
    timeout: 120_000,
  }, async () => {
    const receiver = await startReceiver();
    const database = await openTestDatabase();
    cleanups.push(() => void database.close());
    const first = startServer(database);
    const base = `http://127.0.0.1:${await listeningPort(first)}`;
    const { organizationId, token } = await firstStartCredentials(first);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const post = (origin: string, path: string, body: unknown) =>
      fetch(`${origin}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    const hook = await post(base, `/v1/orgs/${organizationId}/webhooks`, {
      url: receiver.url,
      events: ["space_created"],
    });
    expect(hook.status).toBe(201);
    for (let i = 0; i < 5; i++)
      expect((await post(base, `/v1/orgs/${organizationId}/spaces`, { title: `Before ${i}` })).status).toBe(
        201,
      );

    // The first delivery is on its way, unanswered: the server dies with it.
    await waitFor(async () => receiver.state.requests > 0 || undefined, "the first delivery", 30_000);
    first.child.kill("SIGKILL");
    await first.exited;
    receiver.state.holding = false;

    const second = startServer(database);
    const restarted = `http://127.0.0.1:${await listeningPort(second)}`;
    expect((await post(restarted, `/v1/orgs/${organizationId}/spaces`, { title: "After" })).status).toBe(201);
    await waitFor(
      async () => receiver.state.acknowledged.length >= 6 || undefined,
      "the six events to be delivered",
      60_000,
    );
    // A moment more: nothing is sent twice once acknowledged.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const { acknowledged } = receiver.state;
    expect(acknowledged).toHaveLength(6);
    expect(new Set(acknowledged.map((delivery) => delivery.id)).size).toBe(6);
    const sequences = acknowledged.map((delivery) => delivery.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
  });

  // Several server processes share a PostgreSQL database; SQLite is one process's.
  it.runIf(testDatabaseKind === "postgres")(
    "shares the deliveries between two server processes: each once, in order",
    {
      timeout: 120_000,
    },
    async () => {
      const receiver = await startReceiver();
      receiver.state.holding = false;
      const database = await openTestDatabase();
      cleanups.push(() => void database.close());
      const first = startServer(database);
      const one = `http://127.0.0.1:${await listeningPort(first)}`;
      const { organizationId, token } = await firstStartCredentials(first);
      const two = `http://127.0.0.1:${await listeningPort(startServer(database))}`;
      const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
      const post = (origin: string, path: string, body: unknown) =>
        fetch(`${origin}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
      expect((await post(one, `/v1/orgs/${organizationId}/webhooks`, { url: receiver.url })).status).toBe(
        201,
      );
      const writes = 40;
      await Promise.all(
        Array.from({ length: writes }, async (_, i) => {
          const res = await post(i % 2 ? one : two, `/v1/orgs/${organizationId}/spaces`, {
            title: `Space ${i}`,
          });
          expect(res.status).toBe(201);
        }),
      );
      await waitFor(
        async () => receiver.state.acknowledged.length >= writes || undefined,
        "every event to be delivered",
        60_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const { acknowledged } = receiver.state;
      expect(acknowledged).toHaveLength(writes);
      expect(new Set(acknowledged.map((delivery) => delivery.id)).size).toBe(writes);
      const sequences = acknowledged.map((delivery) => delivery.sequence);
      expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    },
  );
});
