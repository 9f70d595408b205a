import { createHash } from "node:crypto";
import { SqliteAdapter, sql } from "kysely";
import { callerMembership } from "../access.js";
import type { Clock, IdGenerator } from "../context.js";
import { timestamp } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { memberLookup } from "../db/member-lookup.js";
import { preparedRead } from "../db/prepared.js";
import { keysetList } from "../http/paging.js";
import { enqueue, jobType } from "../jobs/queue.js";
import type { OrganizationRole } from "../policy.js";
import type { OpenApiSpecTable } from "./tables.js";

type Deps = { clock: Clock; ids: IdGenerator };

/** Processing one source revision of a specification (see processing.ts). */
export const processOpenApiSpec = jobType<{ specId: string; revision: number }>("openapi-specs.process");

/** Where a specification's content comes from: exactly one of the two is set. */
export type SpecSource = Pick<OpenApiSpecTable, "source_url" | "source_text">;

const specWithMembership = preparedRead(
  (db, args: { organizationId: string; slug: string; userId: string }) =>
    db
      .selectFrom("openapi_specs")
      .selectAll()
      .select(callerMembership(args.userId, sql.ref("openapi_specs.organization_id")).as("caller_membership"))
      .where("organization_id", "=", args.organizationId)
      .where("slug", "=", args.slug),
);

/** The specification with the caller's role in its organization; 404 when missing or not a member. */
export async function specForCaller(
  db: Db,
  args: { organizationId: string; slug: string; userId: string },
): Promise<{ spec: OpenApiSpecTable; role: OrganizationRole }> {
  const [found] = await specWithMembership(db, args);
  const { row: spec, role } = memberLookup(found, "OpenAPI specification");
  return { spec, role };
}

/** The specifications of an organization by slug, with the caller's membership beside each. */
export const listSpecs = keysetList(
  (db, args: { organizationId: string; userId: string }) =>
    db
      .selectFrom("openapi_specs")
      .selectAll()
      .select(callerMembership(args.userId, args.organizationId).as("caller_membership"))
      .where("organization_id", "=", args.organizationId),
  { slug: "string" },
);

/** Processing of the spec's current source revision, queued with the write that asks for it. */
const enqueueProcessing = (tx: Db, deps: Deps, spec: OpenApiSpecTable) =>
  enqueue(tx, deps, processOpenApiSpec, { specId: spec.id, revision: spec.source_revision });

/** A new specification, pending; undefined when the slug is taken. Call inside a transaction. */
export async function insertSpec(
  tx: Db,
  deps: Deps,
  organizationId: string,
  slug: string,
  source: SpecSource,
): Promise<OpenApiSpecTable | undefined> {
  const now = timestamp(deps.clock.now());
  const spec = await tx
    .insertInto("openapi_specs")
    .values({
      id: deps.ids.next(),
      organization_id: organizationId,
      slug,
      ...source,
      source_revision: 1,
      processing_state: "pending",
      last_version_id: null,
      last_processed_at: null,
      last_process_error_code: null,
      last_processed_error_count: 0,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(["organization_id", "slug"]).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (spec) await enqueueProcessing(tx, deps, spec);
  return spec;
}

/** Replaces the source of the specification with this slug and queues it again; undefined when none. */
export async function replaceSource(
  tx: Db,
  deps: Deps,
  organizationId: string,
  slug: string,
  source: SpecSource,
): Promise<OpenApiSpecTable | undefined> {
  const spec = await tx
    .updateTable("openapi_specs")
    .set((eb) => ({
      ...source,
      source_revision: eb("source_revision", "+", 1),
      processing_state: "pending",
      updated_at: timestamp(deps.clock.now()),
    }))
    .where("organization_id", "=", organizationId)
    .where("slug", "=", slug)
    .returningAll()
    .executeTakeFirst();
  if (spec) await enqueueProcessing(tx, deps, spec);
  return spec;
}

export async function deleteSpec(db: Db, id: string): Promise<void> {
  await db.deleteFrom("openapi_specs").where("id", "=", id).execute();
}

/**
 * Marks the spec in progress if `revision` is still its source revision, and returns its source;
 * undefined when the spec is gone or its source changed since (a newer job then has it).
 */
export function startProcessing(db: Db, specId: string, revision: number): Promise<SpecSource | undefined> {
  return db
    .updateTable("openapi_specs")
    .set({ processing_state: "progress" })
    .where("id", "=", specId)
    .where("source_revision", "=", revision)
    .returning(["source_url", "source_text"])
    .executeTakeFirst();
}

/** How processing a source ended: a valid document, or why not and with how many errors. */
export type ProcessingOutcome =
  | { ok: true; content: string; url: string | null; version: string }
  | {
      ok: false;
      errorCode: NonNullable<OpenApiSpecTable["last_process_error_code"]>;
      reason: string;
      errorCount: number;
    };

/**
 * Completes the processing of `revision`: a new version when the document differs from the latest
 * one, the error code otherwise. Nothing when the source changed meanwhile. Call inside a transaction.
 */
export async function recordOutcome(
  tx: Db,
  deps: Deps,
  specId: string,
  revision: number,
  outcome: ProcessingOutcome,
): Promise<void> {
  // On PostgreSQL a PUT waits for this transaction, so that its new revision is not overwritten.
  const current = await tx
    .selectFrom("openapi_specs")
    .select(["source_revision", "last_version_id"])
    .where("id", "=", specId)
    .$if(!(tx.getExecutor().adapter instanceof SqliteAdapter), (query) => query.forUpdate())
    .executeTakeFirst();
  if (current?.source_revision !== revision) return;
  const now = timestamp(deps.clock.now());
  let lastVersion = current.last_version_id;
  if (outcome.ok) {
    const digest = createHash("sha256").update(outcome.content).digest("hex");
    const latest =
      lastVersion === null
        ? undefined
        : await tx
            .selectFrom("openapi_spec_versions")
            .select(["digest", "url"])
            .where("id", "=", lastVersion)
            .executeTakeFirst();
    if (latest?.digest !== digest || latest.url !== outcome.url) {
      lastVersion = deps.ids.next();
      await tx
        .insertInto("openapi_spec_versions")
        .values({
          id: lastVersion,
          spec_id: specId,
          url: outcome.url,
          content: outcome.content,
          digest,
          created_at: now,
        })
        .execute();
    }
  }
  await tx
    .updateTable("openapi_specs")
    .set({
      processing_state: "complete",
      last_version_id: lastVersion,
      last_processed_at: now,
      last_process_error_code: outcome.ok ? null : outcome.errorCode,
      last_processed_error_count: outcome.ok ? 0 : outcome.errorCount,
    })
    .where("id", "=", specId)
    .execute();
}

/**
 * Queues again up to `limit` URL specifications whose last processing completed before `cutoff`,
 * oldest first; how many. Call inside a transaction.
 */
export async function queueRefreshes(tx: Db, deps: Deps, cutoff: string, limit: number): Promise<number> {
  const due = tx
    .selectFrom("openapi_specs")
    .select("id")
    .where("source_url", "is not", null)
    .where("processing_state", "=", "complete")
    .where("last_processed_at", "<=", cutoff)
    .orderBy("last_processed_at")
    .limit(limit);
  const specs = await tx
    .updateTable("openapi_specs")
    .set((eb) => ({ processing_state: "pending", source_revision: eb("source_revision", "+", 1) }))
    .where("id", "in", due)
    .returningAll()
    .execute();
  for (const spec of specs) await enqueueProcessing(tx, deps, spec);
  return specs.length;
}
