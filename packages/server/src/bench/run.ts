import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { bootstrapOwner } from "../bootstrap.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { migrate, openDatabase } from "../db/database.js";
import { createOrganization } from "../organizations/store.js";
import { insertSpace } from "../spaces/store.js";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;

async function start(target: object): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(new URL("./targets.js", import.meta.url), { stdio: "inherit" });
  child.send(target);
  const port = await new Promise<number>((resolve) =>
    child.once("message", (m: { port: number }) => resolve(m.port)),
  );
  return { url: `http://127.0.0.1:${port}`, child };
}

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const row = (label: string, m: { rps: number; p99: number }) =>
  `${label.padEnd(44)} ${m.rps.toFixed(0).padStart(8)} req/s   p99 ${String(m.p99).padStart(4)} ms`;

/** Seeds an organization with collections and spaces, like a small real one. */
async function seed(database: string) {
  const db = openDatabase({ location: database });
  await migrate(db);
  const services = { clock: systemClock, ids: timeOrderedIds() };
  const firstRun = await bootstrapOwner(db, services, "bench@example.com");
  if (!firstRun) throw new Error("expected an empty database");
  const { organizationId, token } = firstRun;
  let lastSpace = "";
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < 500; i++) {
      const space = await insertSpace(tx, services, {
        organization_id: organizationId,
        parent_id: null,
        title: `Space ${i}`,
        emoji: "📄",
        visibility: "private",
        edit_mode: "live",
        default_level: "read",
        position: i,
      });
      lastSpace = space.id;
    }
  });
  const owner = await db.selectFrom("memberships").select("user_id").executeTakeFirstOrThrow();
  await createOrganization(db, services, owner.user_id, { title: "Second organization" });
  await db.destroy();
  return { organizationId, token, spaceId: lastSpace };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "quire-bench-"));
  const children: ChildProcess[] = [];
  try {
    const { organizationId, token, spaceId } = await seed(dir);
    const auth = { Authorization: `Bearer ${token}` };
    const getPath = `/v1/spaces/${spaceId}`;
    const listPath = `/v1/orgs/${organizationId}/spaces?limit=50`;

    const quire = await start({ kind: "quire", database: dir });
    children.push(quire.child);
    const responses: Record<string, unknown> = {};
    for (const path of [getPath, listPath])
      responses[path] = await (await fetch(quire.url + path, { headers: auth })).json();
    const plain = await start({ kind: "plain", responses });
    children.push(plain.child);

    console.log(
      `Quire vs plain Express serving the same JSON (${CONNECTIONS} connections, ${DURATION_S}s each)\n`,
    );
    for (const [label, path] of [
      ["GET /v1/spaces/{spaceId}", getPath],
      ["GET /v1/orgs/{organizationId}/spaces (50)", listPath],
    ] as const) {
      const q = await measure(quire.url + path, auth);
      const p = await measure(plain.url + path);
      console.log(row(`quire  ${label}`, q));
      console.log(row(`plain  ${label}`, p));
      console.log(`${"ratio quire/plain".padEnd(44)} ${(q.rps / p.rps).toFixed(2)}\n`);
    }
  } finally {
    for (const child of children) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
