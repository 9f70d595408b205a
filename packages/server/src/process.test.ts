import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { databaseForLog } from "./config.js";
import {
  assertServerBuilt,
  firstStartCredentials,
  listeningPort,
  type ServerProcess,
  startServerProcess,
  waitFor,
} from "./testing/server-process.js";

describe("databaseForLog", () => {
  it("hides the password of a database URL, in its user part or its query", () => {
    expect(databaseForLog("postgres://quire:s3cr%40t@db.example.com:5432/quire")).toBe(
      "postgres://quire:***@db.example.com:5432/quire",
    );
    expect(databaseForLog("postgresql://db/quire?user=quire&password=s3cret&sslmode=require")).toBe(
      "postgresql://db/quire?user=quire&password=***&sslmode=require",
    );
    expect(databaseForLog("postgres://quire@db/quire")).toBe("postgres://quire@db/quire");
  });

  it("shows a directory as it is, and nothing of a URL it cannot read", () => {
    expect(databaseForLog("/var/lib/quire")).toBe("/var/lib/quire");
    expect(databaseForLog("postgres://quire:s3cret@[db/quire")).toBe("(unparseable database URL)");
  });
});

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function startServer(port: number): ServerProcess {
  const dataDir = mkdtempSync(join(tmpdir(), "quire-process-"));
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return startServerProcess({ ...env, PORT: String(port), QUIRE_DATA_DIR: dataDir }, (kill) =>
    cleanups.push(() => {
      kill();
      rmSync(dataDir, { recursive: true, force: true });
    }),
  );
}

describe("the server process", () => {
  beforeAll(assertServerBuilt);

  it("exits non-zero with a clear message when its port is taken", { timeout: 30_000 }, async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    cleanups.push(() => taken.close());
    const port = (taken.address() as { port: number }).port;

    const server = startServer(port);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`Quire cannot start: port ${port} is already in use`);
    expect(server.output()).not.toContain("Quire is listening");
  });

  it("on SIGTERM refuses new connections, finishes the request in flight and exits 0", {
    timeout: 30_000,
  }, async () => {
    const server = startServer(0);
    const port = await listeningPort(server);
    const base = `http://127.0.0.1:${port}`;
    const { organizationId, token } = await firstStartCredentials(server);
    expect((await fetch(`${base}/health`)).status).toBe(200);

    // A request whose body has not all arrived yet when the signal comes.
    const body = JSON.stringify({ title: "Written during shutdown" });
    const socket = connect(Number(port), "127.0.0.1");
    await once(socket, "connect");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    socket.write(
      `POST /v1/orgs/${organizationId}/collections HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    server.child.kill("SIGTERM");
    await waitFor(() => (server.output().includes("Quire is stopping") ? true : undefined), "stopping");
    await expect(fetch(`${base}/health`)).rejects.toThrow();
    expect(server.child.exitCode).toBeNull();

    socket.end(body.slice(5));
    await waitFor(() => (answer.includes("\r\n\r\n") ? true : undefined), "the answer");
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("Quire stopped");
  });
});
