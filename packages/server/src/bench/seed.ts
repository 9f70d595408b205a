/**
 * What the benches that need content share: a new database's owner with a session, a client of the API
 * with a token, and a space's pages made through it.
 */

import { openSession } from "../auth/sessions.js";
import { bootstrapOwner } from "../bootstrap.js";
import { systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate, openDatabase } from "../db/database.js";
import { urlsFor } from "../urls.js";
import { findUserByEmail } from "../users/index.js";

const benchServices = () => ({
  clock: systemClock,
  ids: timeOrderedIds(),
  urls: urlsFor("http://localhost:8080"),
});

/**
 * The owner of a new database at `location` and a session of theirs (the app's cookie, its `secret`),
 * written before the server starts; `more` writes what else the bench needs meanwhile.
 */
export async function seedOwner(
  location: string,
  more?: (db: Db, services: ReturnType<typeof benchServices>, organizationId: string) => Promise<void>,
) {
  const db = openDatabase({ location });
  try {
    await migrate(db);
    const services = benchServices();
    const firstRun = await bootstrapOwner(db, services, "bench@example.com");
    const owner = await findUserByEmail(db, "bench@example.com");
    if (!firstRun || !owner) throw new Error("expected an empty database");
    await more?.(db, services, firstRun.organizationId);
    const session = await openSession(db, services, { userId: owner.id, method: "password" });
    return { firstRun, secret: session.secret };
  } finally {
    await db.destroy();
  }
}

/** Calls `/v1/<path>` of the server at `base` with `token`; the JSON answer, or an error with the body. */
export function apiClient(base: string, token: string) {
  return async <T>(method: string, path: string, json?: unknown): Promise<T> => {
    const response = await fetch(`${base}/v1/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(json !== undefined && { "content-type": "application/json" }),
      },
      ...(json !== undefined && { body: JSON.stringify(json) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
}

export type ApiCall = ReturnType<typeof apiClient>;

export interface PageNode {
  id: string;
  title: string;
  path?: string;
  pages?: PageNode[];
}

/** Changes sent in one request: well under the API's limits. */
const BATCH = 50;

/**
 * `pages` pages in the space, merged into its main content through one change request: a tenth at
 * the top level, each with nine children, each body made by `body(title)`.
 */
export async function seedPages(
  call: ApiCall,
  spaceId: string,
  pages: number,
  body: (title: string) => string,
): Promise<void> {
  const topLevel = Math.ceil(pages / 10);
  const cr = await call<{ number: number }>("POST", `spaces/${spaceId}/change-requests`, {});
  const edit = (changes: unknown[]) =>
    call("POST", `spaces/${spaceId}/change-requests/${cr.number}/content`, { changes });
  const insert = (title: string, parent?: string) => ({
    type: "insert_page",
    title,
    markdown: body(title),
    parent,
  });
  for (let i = 0; i < topLevel; i += BATCH)
    await edit(Array.from({ length: Math.min(BATCH, topLevel - i) }, (_, j) => insert(`Chapter ${i + j}`)));
  const { pages: chapters } = await call<{ pages: PageNode[] }>(
    "GET",
    `spaces/${spaceId}/change-requests/${cr.number}/content/pages`,
  );
  const children = chapters.flatMap((page, i) =>
    Array.from({ length: 9 }, (_, j) => insert(`Section ${i}.${j}`, page.id)),
  );
  for (let i = 0; i < pages - topLevel; i += BATCH)
    await edit(children.slice(i, Math.min(i + BATCH, pages - topLevel)));
  await call("POST", `spaces/${spaceId}/change-requests/${cr.number}/merge`);
}

/** Every page of a tree, depth first. */
export const flatPages = (nodes: readonly PageNode[]): PageNode[] =>
  nodes.flatMap((node) => [node, ...flatPages(node.pages ?? [])]);
