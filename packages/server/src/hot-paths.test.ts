import type { IncomingMessage } from "node:http";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { requestAuthenticator, TOKEN_CACHE_TTL_MS } from "./auth/authenticate.js";
import { generateSecretKey } from "./auth/secret-key.js";
import { issueToken } from "./auth/tokens.js";
import { createOrganization } from "./commands/create-organization.js";
import { timeOrderedIds } from "./context.js";
import { type Db, migrate } from "./db/database.js";
import { setGrants } from "./permissions/store.js";
import { openTestDatabase, type TestDatabase } from "./testing/database.js";
import { buildCollection, buildSpace } from "./testing/factories.js";
import { TestClock } from "./testing/harness.js";
import { createUser } from "./users/store.js";

/**
 * The reads every client makes most cost one SQL statement each: the caller's role comes back with
 * the resource, counts come from counters or the same statement, and a known token is cached.
 */
let db: Db;
let testDatabase: TestDatabase;
const statements: string[] = [];
let request: supertest.Agent;
let auth: { Authorization: string };
const paths: Record<string, string> = {};
let granted: { organizationId: string; spaceId: string; userId: string };

beforeAll(async () => {
  testDatabase = await openTestDatabase({ onStatement: (sql) => statements.push(sql) });
  db = testDatabase.db;
  await migrate(db);
  const clock = new TestClock();
  const ids = timeOrderedIds();
  const services = { clock, ids };
  const user = await createUser(db, services, { email: "hot@example.com", displayName: "Hot" });
  const organization = await createOrganization(db, services, user.id, { title: "Hot" });
  auth = { Authorization: `Bearer ${await issueToken(db, services, user.id, "test")}` };
  const t = { db, clock, ids } as Parameters<typeof buildSpace>[0];
  const collection = await buildCollection(t, { organization_id: organization.id });
  for (let i = 0; i < 3; i++)
    await buildSpace(t, { organization_id: organization.id, parent_id: collection.id });
  const space = await buildSpace(t, { organization_id: organization.id });
  granted = { organizationId: organization.id, spaceId: space.id, userId: user.id };
  request = supertest.agent(
    createApp({ db, clock, ids, validateResponses: true, secretKey: generateSecretKey() }),
  );
  Object.assign(paths, {
    "GET space": `/v1/spaces/${space.id}`,
    "GET collection": `/v1/collections/${collection.id}`,
    "GET organization": `/v1/orgs/${organization.id}`,
    "list spaces": `/v1/orgs/${organization.id}/spaces?limit=2`,
    "list spaces of a collection": `/v1/collections/${collection.id}/spaces`,
    "list collections": `/v1/orgs/${organization.id}/collections`,
    "list organizations": "/v1/orgs",
  });
});
afterAll(() => testDatabase.close());

describe("hot read paths", () => {
  /** The statements of two requests of `name`, once the token is known. */
  const statementsOfTwo = async (name: string) => {
    const path = paths[name] as string;
    await request.get("/v1/user").set(auth).expect(200);
    statements.length = 0;
    const first = await request.get(path).set(auth).expect(200);
    const second = await request.get(path).set(auth).expect(200);
    expect(second.body).toEqual(first.body);
    return statements.length;
  };

  it.each(["GET space", "GET collection", "GET organization", "list organizations"])(
    "%s costs one statement once the token is known: the access rule's lookup is the read",
    async (name) => {
      expect(await statementsOfTwo(name)).toBe(2);
    },
  );

  it.each(["list spaces", "list spaces of a collection", "list collections"])(
    "%s costs two statements once the token is known: the access rule's lookup, then the page",
    async (name) => {
      expect(await statementsOfTwo(name)).toBe(4);
    },
  );

  it("costs no statement for a token met less than a second ago", async () => {
    await request.get("/v1/user").set(auth).expect(200);
    statements.length = 0;
    await request.get("/v1/user").set(auth).expect(200);
    expect(statements).toHaveLength(0);
  });
});

describe("grants on the hot paths", () => {
  it("are left out for a caller who holds none, and read at once after one is given here", async () => {
    const readsGrants = () => statements.some((sql) => sql.includes("content_permissions"));
    await request.get("/v1/user").set(auth).expect(200);
    statements.length = 0;
    await request
      .get(paths["list spaces"] as string)
      .set(auth)
      .expect(200);
    await request
      .get(paths["GET space"] as string)
      .set(auth)
      .expect(200);
    expect(readsGrants()).toBe(false);

    const { organizationId, spaceId, userId } = granted;
    const space = {
      kind: "space",
      id: spaceId,
      organizationId,
      parentId: null,
      defaultLevel: "read",
    } as const;
    const context = { clock: new TestClock(), ids: timeOrderedIds() };
    await setGrants(db, context, userId, space, { users: [userId], teams: [] }, "admin");
    statements.length = 0;
    await request
      .get(paths["GET space"] as string)
      .set(auth)
      .expect(200);
    expect(readsGrants()).toBe(true);
    await setGrants(db, context, userId, space, { users: [userId], teams: [] }, null);
  });
});

describe("the token cache", () => {
  it("forgets a revoked token within TOKEN_CACHE_TTL_MS", async () => {
    let now = 0;
    const authenticate = requestAuthenticator(
      db,
      { publicOrigin: "http://localhost:8080", clock: new TestClock() },
      () => now,
    );
    const token = await issueToken(
      db,
      { clock: new TestClock(), ids: timeOrderedIds() },
      (await db.selectFrom("users").select("id").executeTakeFirstOrThrow()).id,
      "revoked",
    );
    const header = { headers: { authorization: `Bearer ${token}` } } as IncomingMessage;
    await authenticate(header);
    await db.deleteFrom("api_tokens").where("label", "=", "revoked").execute();
    now = TOKEN_CACHE_TTL_MS - 1;
    // Trusted still: answered from the cache, without a promise.
    expect(authenticate(header)).toHaveProperty("user");
    now = TOKEN_CACHE_TTL_MS;
    await expect(authenticate(header)).rejects.toMatchObject({ status: 401 });
  });
});
