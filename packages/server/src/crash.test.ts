import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "./db/database.js";
import { countSpaceActivity } from "./spaces/activity.js";
import { openTestDatabase, type TestDatabase, testDatabaseKind } from "./testing/database.js";
import {
  assertServerBuilt,
  firstStartCredentials,
  listeningPort,
  startServerOn,
  waitFor,
} from "./testing/server-process.js";

const WRITES = 1000;
/** Requests in flight at once: enough to interleave, few enough to keep the machine responsive. */
const IN_FLIGHT = 40;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const startServer = (database: TestDatabase) => startServerOn(database, {}, (kill) => cleanups.push(kill));

interface Write {
  kind: "collection" | "space" | "change request" | "page";
  name: string;
  status?: number;
  id?: string;
}

/** Every item of a list operation, following `next.page`. */
async function listAll(
  url: string,
  headers: Record<string, string>,
): Promise<{ id: string; title: string }[]> {
  const items: { id: string; title: string }[] = [];
  let page: string | undefined;
  do {
    const res = await fetch(`${url}?limit=100${page ? `&page=${page}` : ""}`, { headers });
    const body = (await res.json()) as { items: { id: string; title: string }[]; next?: { page: string } };
    items.push(...body.items);
    page = body.next?.page;
  } while (page);
  return items;
}

/** What no acknowledged write may leave behind: a space without its revision, counters off their rows. */
async function assertConsistent(db: Db) {
  const orphans = await db
    .selectFrom("spaces")
    .leftJoin("revisions", "revisions.id", "spaces.revision_id")
    .select("spaces.id")
    .where("revisions.id", "is", null)
    .execute();
  expect(orphans).toEqual([]);
  const requestsWithoutRevision = await db
    .selectFrom("change_requests")
    .leftJoin("revisions", "revisions.id", "change_requests.revision_id")
    .select("change_requests.id")
    .where("revisions.id", "is", null)
    .execute();
  expect(requestsWithoutRevision).toEqual([]);
  for (const space of await db.selectFrom("spaces").selectAll().execute()) {
    const stored = Object.fromEntries(
      Object.keys(await countSpaceActivity(db, space.id)).map((key) => [
        key,
        space[key as keyof typeof space],
      ]),
    );
    expect(stored).toEqual(await countSpaceActivity(db, space.id));
  }
}

describe("a server killed with SIGKILL under concurrent writes", () => {
  beforeAll(assertServerBuilt);

  it(`keeps every write it acknowledged of ${WRITES}, and nothing half-written`, {
    timeout: 180_000,
  }, async () => {
    const database = await openTestDatabase();
    cleanups.push(() => void database.close());
    const first = startServer(database);
    const base = `http://127.0.0.1:${await listeningPort(first)}`;
    const { organizationId, token } = await firstStartCredentials(first);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const post = (path: string, body: object) =>
      fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });

    const space = (await (await post(`/v1/orgs/${organizationId}/spaces`, { title: "Edited" })).json()) as {
      id: string;
    };
    const draft = (await (await post(`/v1/spaces/${space.id}/change-requests`, {})).json()) as { id: string };
    const kinds: Write["kind"][] = ["collection", "space", "change request", "page"];
    const writes: Write[] = Array.from({ length: WRITES }, (_, i) => ({
      kind: kinds[i % kinds.length] as Write["kind"],
      name: `write ${i}`,
    }));
    const send = (write: Write) => {
      if (write.kind === "collection")
        return post(`/v1/orgs/${organizationId}/collections`, { title: write.name });
      if (write.kind === "space") return post(`/v1/orgs/${organizationId}/spaces`, { title: write.name });
      if (write.kind === "change request")
        return post(`/v1/spaces/${space.id}/change-requests`, { subject: write.name });
      return post(`/v1/spaces/${space.id}/change-requests/${draft.id}/content`, {
        changes: [{ type: "insert_page", title: write.name, markdown: `Body of ${write.name}` }],
      });
    };

    // Writes go out IN_FLIGHT at a time; the server is killed once a third of them are answered.
    let next = 0;
    let answered = 0;
    const worker = async () => {
      while (next < writes.length) {
        const write = writes[next++] as Write;
        try {
          const res = await send(write);
          write.status = res.status;
          if (res.ok) write.id = ((await res.json()) as { id?: string }).id;
          answered += 1;
        } catch {
          // The connection died with the server: not acknowledged.
        }
      }
    };
    const workers = Array.from({ length: IN_FLIGHT }, worker);
    await waitFor(
      () => (answered >= WRITES / 3 ? true : undefined),
      "a third of the writes to be answered",
      120_000,
    );
    first.child.kill("SIGKILL");
    await first.exited;
    await Promise.all(workers);

    const acknowledged = writes.filter((write) => write.status !== undefined && write.status < 300);
    expect(writes.filter((write) => write.status !== undefined && write.status >= 300)).toEqual([]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(WRITES / 3);
    expect(acknowledged.length).toBeLessThan(WRITES);

    const second = startServer(database);
    const restarted = `http://127.0.0.1:${await listeningPort(second)}`;
    const titles = (kind: Write["kind"]) => acknowledged.filter((w) => w.kind === kind).map((w) => w.name);
    const collections = await listAll(`${restarted}/v1/orgs/${organizationId}/collections`, headers);
    expect(collections.map((c) => c.title)).toEqual(expect.arrayContaining(titles("collection")));
    const spaces = await listAll(`${restarted}/v1/orgs/${organizationId}/spaces`, headers);
    expect(spaces.map((s) => s.title)).toEqual(expect.arrayContaining(titles("space")));
    for (const write of acknowledged.filter((w) => w.kind === "change request")) {
      const res = await fetch(`${restarted}/v1/spaces/${space.id}/change-requests/${write.id}`, { headers });
      expect(res.status).toBe(200);
    }
    const pages = await fetch(
      `${restarted}/v1/spaces/${space.id}/change-requests/${draft.id}/content/pages`,
      {
        headers,
      },
    );
    const pageTitles = ((await pages.json()) as { pages: { title: string }[] }).pages.map(
      (page) => page.title,
    );
    expect(pageTitles).toEqual(expect.arrayContaining(titles("page")));
    await assertConsistent(database.db);
    console.log(
      `${acknowledged.length} of ${WRITES} writes acknowledged before SIGKILL; all of them found after the restart.`,
    );
  });
});

describe.skipIf(testDatabaseKind !== "postgres")("two server processes on one PostgreSQL database", () => {
  beforeAll(assertServerBuilt);

  it("share concurrent writes without a 5xx, a lost write or a duplicate number", {
    timeout: 120_000,
  }, async () => {
    const database = await openTestDatabase();
    cleanups.push(() => void database.close());
    const first = startServer(database);
    const bases = [`http://127.0.0.1:${await listeningPort(first)}`];
    const { organizationId, token } = await firstStartCredentials(first);
    bases.push(`http://127.0.0.1:${await listeningPort(startServer(database))}`);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const post = async (i: number, path: string, body: object) => {
      const res = await fetch(`${bases[i % 2]}${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        body: (await res.json()) as { id: string; number?: number; position?: number },
      };
    };

    const space = (await post(0, `/v1/orgs/${organizationId}/spaces`, { title: "Shared" })).body;
    const draft = (await post(0, `/v1/spaces/${space.id}/change-requests`, {})).body;
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => {
        if (i % 3 === 0)
          return post(i, `/v1/spaces/${space.id}/change-requests`, { subject: `request ${i}` });
        if (i % 3 === 1)
          return post(i, `/v1/orgs/${organizationId}/collections`, { title: `collection ${i}` });
        return post(i, `/v1/spaces/${space.id}/change-requests/${draft.id}/content`, {
          changes: [{ type: "insert_page", title: `page ${i}`, markdown: "text" }],
        });
      }),
    );
    expect(answers.filter((answer) => answer.status >= 300)).toEqual([]);
    const numbers = answers.filter((_, i) => i % 3 === 0).map((answer) => answer.body.number as number);
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 2));
    const positions = await database.db.selectFrom("collections").select("position").execute();
    expect(new Set(positions.map((row) => row.position)).size).toBe(100);
    const pages = await fetch(`${bases[1]}/v1/spaces/${space.id}/change-requests/${draft.id}/content/pages`, {
      headers,
    });
    expect(((await pages.json()) as { pages: unknown[] }).pages).toHaveLength(100);
    await assertConsistent(database.db);
  });
});
