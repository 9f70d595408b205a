import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  bootstrapOwner,
  createApp,
  type Db,
  generateSecretKey,
  migrate,
  openDatabase,
  systemClock,
  timeOrderedIds,
  urlsFor,
} from "@quire/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allItems, allPages, createClient, QuireApiError, type QuireClient, unwrap } from "./index.js";

let server: Server;
let db: Db;
let dir: string;
let baseUrl: string;
let client: QuireClient;
let organizationId: string;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "quire-client-"));
  db = openDatabase({ location: dir });
  await migrate(db);
  const firstRun = await bootstrapOwner(
    db,
    { clock: systemClock, ids: timeOrderedIds(), urls: urlsFor("http://localhost:8080") },
    "owner@example.com",
  );
  if (!firstRun) throw new Error("expected an empty database");
  organizationId = firstRun.organizationId;
  token = firstRun.token;
  server = createServer(createApp({ db, validateResponses: true, secretKey: generateSecretKey() })).listen(
    0,
    "127.0.0.1",
  );
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = createClient({ baseUrl, token: firstRun.token });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("createClient against the real server", () => {
  it("calls typed operations with the bearer token", async () => {
    const me = await unwrap(client.GET("/v1/user"));
    expect(me.email).toBe("owner@example.com");
    const space = await unwrap(
      client.POST("/v1/orgs/{organizationId}/spaces", {
        params: { path: { organizationId } },
        body: { title: "From the client" },
      }),
    );
    const fetched = await unwrap(
      client.GET("/v1/spaces/{spaceId}", { params: { path: { spaceId: space.id } } }),
    );
    expect(fetched.title).toBe("From the client");
  });

  it("throws QuireApiError carrying the error body", async () => {
    const failure = await unwrap(
      client.GET("/v1/spaces/{spaceId}", { params: { path: { spaceId: "missing" } } }),
    ).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(QuireApiError);
    expect((failure as QuireApiError).status).toBe(404);
    expect((failure as QuireApiError).body).toEqual({
      error: { code: 404, type: "not_found", message: "Space not found." },
    });

    const anonymous = createClient({ baseUrl, token: "quire_wrong" });
    await expect(unwrap(anonymous.GET("/v1/orgs"))).rejects.toMatchObject({ status: 401 });
  });

  it("iterates over every page of a list operation", async () => {
    for (let i = 0; i < 7; i++) {
      await unwrap(
        client.POST("/v1/orgs/{organizationId}/collections", {
          params: { path: { organizationId } },
          body: { title: `Collection ${i}` },
        }),
      );
    }
    const list = (page: string | undefined) =>
      client.GET("/v1/orgs/{organizationId}/collections", {
        params: { path: { organizationId }, query: { limit: 3, ...(page && { page }) } },
      });
    const sizes: number[] = [];
    for await (const page of allPages(list)) sizes.push(page.items.length);
    expect(sizes).toEqual([3, 3, 1]);
    const titles: string[] = [];
    for await (const collection of allItems(list)) titles.push(collection.title);
    expect(titles).toEqual(Array.from({ length: 7 }, (_, i) => `Collection ${i}`));
  });
});

describe("createClient with an injected fetch", () => {
  it("sends the token and maps a failure without a JSON body", async () => {
    const seen: Request[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      seen.push(input as Request);
      return new Response("upstream down", { status: 503, statusText: "Service Unavailable" });
    };
    const offline = createClient({ baseUrl: "http://quire.invalid/", token: "quire_abc", fetch });
    const failure = await unwrap(offline.GET("/v1/orgs")).catch((err: unknown) => err);
    expect(seen[0]?.headers.get("authorization")).toBe("Bearer quire_abc");
    expect(seen[0]?.url).toBe("http://quire.invalid/v1/orgs");
    expect(failure).toMatchObject({
      status: 503,
      body: { error: { code: 503, type: "unavailable", message: "Service Unavailable" } },
    });
  });
});

describe("the quick-start example of the README", () => {
  it("runs against a fresh server: a space, a commented and merged change request, its pages", {
    timeout: 30_000,
  }, async () => {
    const example = new URL("../examples/quickstart.mjs", import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(process.execPath, [example], {
      env: { ...process.env, QUIRE_URL: baseUrl, QUIRE_TOKEN: token, QUIRE_ORG: organizationId },
    });
    expect(stdout).toMatch(/^comment by .+: Looks good\.$/m);
    expect(stdout).toContain("Handbook: Welcome, Install\n");
    const spaces = await unwrap(
      client.GET("/v1/orgs/{organizationId}/spaces", { params: { path: { organizationId } } }),
    );
    const handbook = spaces.items.find((space) => space.title === "Handbook");
    expect(stdout).toContain(`space ${handbook?.id}: Handbook`);
  });
});
