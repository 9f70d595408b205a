import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type GitServer, startGitServer } from "../net/git-server.js";
import { openTestDatabase, type TestDatabase } from "../testing/database.js";
import {
  assertServerBuilt,
  firstStartCredentials,
  listeningPort,
  startServerOn,
  waitFor,
} from "../testing/server-process.js";

const PAGES = 600;
/** Short, so that the restarted server takes the dead one's job again within seconds. */
const JOB_LEASE_MS = 15_000;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

let git: GitServer;
const cache = mkdtempSync(join(tmpdir(), "quire-crash-git-"));
beforeAll(async () => {
  assertServerBuilt();
  git = await startGitServer({ username: "bot", password: "pw" });
});
afterAll(async () => {
  await git.close();
  rmSync(cache, { recursive: true, force: true });
});

const startServer = (database: TestDatabase) =>
  startServerOn(
    database,
    {
      QUIRE_FETCH_ALLOW_PRIVATE: "127.0.0.1",
      QUIRE_GIT_CACHE_DIR: cache,
      QUIRE_JOB_LEASE_MS: String(JOB_LEASE_MS),
      QUIRE_GIT_TIMEOUT_MS: String(JOB_LEASE_MS - 5_000),
    },
    (kill) => cleanups.push(kill),
  );

/** A repository of PAGES pages under SUMMARY.md: reading and storing it takes the server a while. */
function repositoryFiles(): Record<string, string> {
  const files: Record<string, string> = { "README.md": "# Home\n\nWelcome.\n" };
  const entries = ["* [Home](README.md)"];
  for (let i = 0; i < PAGES; i++) {
    files[`pages/page-${i}.md`] =
      `# Page ${i}\n\n${"Some text about the topic, with *emphasis* and `code`. ".repeat(20)}\n\n## Part\n\n- one\n- two\n`;
    entries.push(`* [Page ${i}](pages/page-${i}.md)`);
  }
  files["SUMMARY.md"] = `# Table of contents\n\n${entries.join("\n")}\n`;
  return files;
}

describe("a server killed with SIGKILL during a Git Sync import", () => {
  it("leaves the space as it was, and the restarted server takes the import again to its end", {
    timeout: 180_000,
  }, async () => {
    await git.createRepository("big", repositoryFiles());
    const database = await openTestDatabase();
    cleanups.push(() => void database.close());
    const first = startServer(database);
    const base = `http://127.0.0.1:${await listeningPort(first)}`;
    const { organizationId, token } = await firstStartCredentials(first);
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    const created = await fetch(`${base}/v1/orgs/${organizationId}/spaces`, {
      method: "POST",
      headers,
      body: JSON.stringify({ title: "Imported" }),
    });
    const space = (await created.json()) as { id: string };
    const url = new URL(git.url("big"));
    url.username = "bot";
    url.password = "pw";
    const asked = await fetch(`${base}/v1/spaces/${space.id}/git/import`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: url.href, ref: "refs/heads/main" }),
    });
    expect(asked.status).toBe(204);

    // Killed once the repository is fetched, while its pages are read: before the one transaction
    // that writes them.
    await waitFor(
      async () => {
        const operation = await database.db
          .selectFrom("git_sync_operations")
          .select("stage")
          .where("space_id", "=", space.id)
          .executeTakeFirst();
        return operation?.stage === "config_check" || operation?.stage === "content_process"
          ? true
          : undefined;
      },
      "the import to read the repository",
      60_000,
    );
    first.child.kill("SIGKILL");
    await first.exited;

    const revisions = await database.db
      .selectFrom("revisions")
      .select("id")
      .where("space_id", "=", space.id)
      .execute();
    expect(revisions).toHaveLength(1);
    expect(
      await database.db.selectFrom("change_requests").select("id").where("space_id", "=", space.id).execute(),
    ).toEqual([]);
    expect(
      await database.db
        .selectFrom("git_sync_connections")
        .select("space_id")
        .where("space_id", "=", space.id)
        .execute(),
    ).toEqual([]);

    const second = startServer(database);
    const restarted = `http://127.0.0.1:${await listeningPort(second)}`;
    const info = await waitFor(
      async () => {
        const res = await fetch(`${restarted}/v1/spaces/${space.id}/git/info`, { headers });
        const body = (await res.json()) as { operation?: { state: string; commit?: string } };
        return body.operation?.state === "running" ? undefined : body;
      },
      "the import to be taken again and to end",
      120_000,
    );
    expect(info).toMatchObject({
      installationStatus: "active",
      operation: { state: "success", commit: await git.head("big") },
    });
    const pages = await fetch(`${restarted}/v1/spaces/${space.id}/content/pages`, { headers });
    const tree = (await pages.json()) as { pages: unknown[] };
    expect(tree.pages).toHaveLength(PAGES + 1);
  });
});
