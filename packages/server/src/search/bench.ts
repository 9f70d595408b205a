import { sql } from "kysely";
import { onBenchDatabases } from "../bench/databases.js";
import { createOrganization } from "../commands/create-organization.js";
import { insertRevision } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import { type PageEntry, updateTrie } from "../content/trie.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate } from "../db/database.js";
import { addMembership } from "../members/index.js";
import { insertSpace } from "../spaces/index.js";
import { urlsFor } from "../urls.js";
import { createUser } from "../users/index.js";
import { isSqlite } from "./engine.js";
import { indexMainContent } from "./indexer.js";
import { searchContent } from "./search.js";
import type { SearchedSpaces } from "./store.js";

const PAGES = Number(process.env.PAGES ?? 10_000);
const SPACES = Number(process.env.SPACES ?? 10);
const QUERIES = Number(process.env.QUERIES ?? 300);
const VOCABULARY = 5_000;

/** A deterministic generator, so that both engines get the same content. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const words = Array.from({ length: VOCABULARY }, (_, i) => `w${i.toString(36)}ord`);

/** Zipf-like: word 0 is in most pages, the last ones in a few. */
function sentence(next: () => number, length: number): string {
  return Array.from({ length }, () => words[Math.floor(VOCABULARY * next() ** 3)] as string).join(" ");
}

function pageBody(next: () => number): string {
  return [1, 2, 3]
    .map((n) => `## ${sentence(next, 3)} ${n}\n\n${sentence(next, 40)}.\n\n${sentence(next, 30)}.`)
    .join("\n\n");
}

async function seed(db: Db): Promise<{ organizationId: string; userId: string }> {
  const clock = systemClock;
  const ids = timeOrderedIds();
  const user = await createUser(db, { clock, ids }, { email: "bench@example.com", displayName: "Bench" });
  const organization = await createOrganization(db, { clock, ids }, user.id, { title: "Bench" });
  const reader = await createUser(db, { clock, ids }, { email: "reader@example.com", displayName: "Reader" });
  await addMembership(
    db,
    { clock, ids },
    {
      organizationId: organization.id,
      userId: reader.id,
      role: "read",
      joinedAt: clock.now().toISOString(),
    },
  );
  const next = random(42);
  const now = clock.now().toISOString();
  const started = performance.now();
  for (let s = 0; s < SPACES; s++) {
    await db.transaction().execute(async (tx) => {
      const space = await insertSpace(
        tx,
        { clock, ids },
        {
          organization_id: organization.id,
          parent_id: null,
          title: `Space ${s}`,
          emoji: "",
          visibility: "private",
          edit_mode: "live",
          default_level: "read",
          position: s,
        },
      );
      const storage = new ContentStorage(tx, space.id);
      const entries: PageEntry[] = [];
      for (let p = 0; p < PAGES / SPACES; p++) {
        entries.push({
          id: ids.next(),
          parent: null,
          order: `a${p.toString(36).padStart(4, "0")}`,
          title: sentence(next, 2),
          slug: `page-${p}`,
          document: storage.saveDocument(pageBody(next)),
          createdAt: now,
          updatedAt: now,
        });
      }
      const root = await updateTrie(
        storage,
        null,
        entries.map((entry) => [entry.id, entry]),
      );
      const revision = await insertRevision(tx, storage, {
        id: ids.next(),
        space_id: space.id,
        parent_id: space.revision_id,
        merge_parent_id: null,
        type: "merge",
        root,
        author_id: null,
        created_at: now,
      });
      await tx.updateTable("spaces").set({ revision_id: revision.id }).where("id", "=", space.id).execute();
      await indexMainContent(tx, storage, revision);
    });
  }
  console.log(`  indexed ${PAGES} pages in ${Math.round(performance.now() - started)} ms`);
  // A server's index is queried with its statistics up to date (autovacuum analyzes a table that
  // changed this much): without them the plan depends on whether autovacuum came by yet.
  if (!isSqlite(db)) await sql`analyze search_sections`.execute(db);
  return { organizationId: organization.id, userId: reader.id };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;

/** The queries of each kind over `spaces`: a reader's of the organization, or a site's spaces. */
async function measure(db: Db, organizationId: string, spaces: SearchedSpaces) {
  const urls = urlsFor("http://quire.local");
  const next = random(7);
  const kinds: Record<string, () => string> = {
    rare: () => words[VOCABULARY - 1 - Math.floor(next() * 1000)] as string,
    common: () => words[Math.floor(next() * 5)] as string,
    "two words": () => `${words[Math.floor(VOCABULARY * next() ** 2)]} ${words[Math.floor(next() * 50)]}`,
    // The first three letters of a word, as typed so far.
    prefix: () => (words[Math.floor(VOCABULARY * next() ** 2)] as string).slice(0, 3),
  };
  for (const [kind, query] of Object.entries(kinds)) {
    const times: number[] = [];
    let results = 0;
    for (let i = 0; i < QUERIES; i++) {
      const started = performance.now();
      const page = await searchContent(db, urls, { organizationId, spaces, text: query() }, {});
      times.push(performance.now() - started);
      results += page.items.reduce((sum, space) => sum + space.pages.length, 0);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${kind.padEnd(10)} p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms, ` +
        `${(results / QUERIES).toFixed(1)} pages shown a query`,
    );
  }
}

async function run(kind: string, db: Db) {
  console.log(`${kind}: ${PAGES} pages in ${SPACES} spaces, ${QUERIES} queries of each kind`);
  await migrate(db);
  const reader = await seed(db);
  console.log("  the organization's search, as a reader:");
  await measure(db, reader.organizationId, reader);
  // A site's search: the same statement over the spaces the site publishes (here all ten).
  const published = await db
    .selectFrom("spaces")
    .select("id")
    .where("organization_id", "=", reader.organizationId)
    .execute();
  const spaceIds = published.map((row) => row.id);
  console.log(`  a site's search, over its ${spaceIds.length} spaces:`);
  await measure(db, reader.organizationId, { spaceIds });
}

await onBenchDatabases("search", (kind, db) =>
  run(kind === "sqlite" ? "SQLite (FTS5)" : "PostgreSQL (tsvector, GIN)", db),
);
