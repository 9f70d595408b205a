import type { Schema } from "@quire/api-types";
import { contentEngine, type FrontMatterChanges } from "../content/engine/index.js";
import { contentHash } from "../content/hash.js";
import { ContentDraft, InvalidChange, type PageTree, type Placement } from "../content/pages.js";
import { insertRevision, revisionOf, treeOf } from "../content/revisions.js";
import { ContentStorage } from "../content/storage.js";
import { allEntries, updateTrie } from "../content/trie.js";
import type { IdGenerator } from "../context.js";
import type { Db, Transaction } from "../db/database.js";
import type { SpaceTable } from "../db/schema.js";
import { ApiError, badRequest, conflict } from "../http/errors.js";
import { assertSpaceNotDeleted } from "../spaces/index.js";
import {
  addContributor,
  type ChangeRequestRow,
  changeRequestOf,
  lockSpace,
  updateChangeRequest,
} from "./store.js";

/** One change of `updateChangeRequestContent`, in Quire's form (`type`) or GitBook's (`operation`). */
export type ContentChange = Schema<"ChangeRequestContentChange"> | Schema<"GitBookContentChange">;

/** A GitBook change's body as Markdown, once `prepareContentEdit` converted a JSON document sent. */
type MarkdownBody = Schema<"MarkdownDocument">;

/** A GitBook change as prepared: its body, if any, as Markdown. */
type PreparedGitBookChange =
  | (Omit<Schema<"GitBookInsertPageChange">, "document"> & { document: MarkdownBody })
  | (Omit<Schema<"GitBookUpdatePageChange">, "document"> & { document?: MarkdownBody })
  | Schema<"GitBookDeletePageChange">;

/** A change as `prepareContentEdit` leaves it: every body in it Markdown. */
export type PreparedChange = Schema<"ChangeRequestContentChange"> | PreparedGitBookChange;

/** The current body of a page of the edited content; undefined for a page it does not hold. */
export type CurrentBody = (pageId: string) => Promise<string | undefined>;

/** The title GitBook gives a page inserted with neither a title nor a leading heading. */
const UNTITLED = "Untitled";

/**
 * Applies the changes to the draft in order; the first that cannot apply is a 400 naming its index,
 * and then nothing is written (the caller's transaction rolls back).
 */
function applyChanges(
  draft: ContentDraft,
  storage: ContentStorage,
  ids: IdGenerator,
  { changes, leadingTitles }: PreparedEdit,
): void {
  for (const [index, change] of changes.entries()) {
    try {
      if ("type" in change) applyQuireChange(draft, storage, ids, change);
      else applyGitBookChange(draft, storage, ids, change, leadingTitles);
    } catch (err) {
      if (!(err instanceof InvalidChange)) throw err;
      throw invalidChange(change, index, err.message);
    }
  }
}

/** The 400 for a change that cannot apply, naming it: the whole edit is refused. */
function invalidChange(change: ContentChange | PreparedChange, index: number, why: string): ApiError {
  const kind = "type" in change ? change.type : change.operation;
  return badRequest(`changes[${index}] (${kind}): ${why}; no change was applied.`);
}

function applyQuireChange(
  draft: ContentDraft,
  storage: ContentStorage,
  ids: IdGenerator,
  change: Schema<"ChangeRequestContentChange">,
): void {
  switch (change.type) {
    case "insert_page": {
      // `before` wins when both are given, as for collections and spaces.
      const { before, after } = change.position ?? {};
      const placement: Placement = before ? { before: before.page } : after ? { after: after.page } : {};
      draft.insert({
        id: ids.next(),
        title: change.title,
        parent: change.parent ?? null,
        placement,
        document: storage.saveDocument(change.markdown),
      });
      return;
    }
    case "update_page":
      draft.update(change.page, {
        ...(change.title !== undefined && { title: change.title }),
        ...(change.markdown !== undefined && { document: storage.saveDocument(change.markdown) }),
      });
      return;
    case "delete_page":
      draft.remove(change.page);
  }
}

function applyGitBookChange(
  draft: ContentDraft,
  storage: ContentStorage,
  ids: IdGenerator,
  change: PreparedGitBookChange,
  leadingTitles: PreparedEdit["leadingTitles"],
): void {
  switch (change.operation) {
    case "insert_page": {
      const heading = leadingTitles.get(change.document.markdown);
      const page = draft.insert({
        id: ids.next(),
        title: heading?.title ?? change.title ?? UNTITLED,
        parent: change.into ?? null,
        placement: { ...(change.at !== undefined && { index: change.at }) },
        document: storage.saveDocument(heading?.body ?? change.document.markdown),
      });
      if (change.slug !== undefined) draft.setSlug(page.id, change.slug);
      return;
    }
    case "update_page": {
      draft.update(change.page, {
        ...(change.title !== undefined && { title: change.title }),
        ...(change.document !== undefined && { document: storage.saveDocument(change.document.markdown) }),
      });
      if (change.slug !== undefined) draft.setSlug(change.page, change.slug);
      const parent = change.into === undefined ? draft.get(change.page)?.parent : change.into;
      // Without `at`, a page keeps its place among the same siblings, and goes last among new ones.
      if (parent !== undefined && (change.at !== undefined || parent !== draft.get(change.page)?.parent))
        draft.move(change.page, parent, { ...(change.at !== undefined && { index: change.at }) });
      return;
    }
    case "delete_page":
      draft.remove(change.page);
  }
}

/**
 * A page a command inserts (an import) with an id of its own choosing, so that other pages of the
 * same batch can go under it; appended last among its siblings.
 */
export interface NewPage {
  id: string;
  title: string;
  /** A page of the content, or one of the batch listed before this one; null at the top level. */
  parent: string | null;
  markdown: string;
}

/** An edit whose bodies the content engine has read (see `prepareContentEdit`); `noContentEdit` changes nothing. */
export interface PreparedEdit {
  changes: readonly PreparedChange[];
  pages: readonly NewPage[];
  /** The level-1 heading opening the body of a GitBook `insert_page`, which becomes its title, by body. */
  leadingTitles: ReadonlyMap<string, { title: string; body: string }>;
}

/** The body a change brings, in Quire's form (`markdown`) or GitBook's (`document.markdown`). */
function bodyOf(change: PreparedChange): string[] {
  if ("type" in change) return "markdown" in change && change.markdown !== undefined ? [change.markdown] : [];
  return "document" in change && change.document ? [change.document.markdown] : [];
}

export const noContentEdit: PreparedEdit = { changes: [], pages: [], leadingTitles: new Map() };

/**
 * The change with the JSON document it sends, if any, converted to Markdown (an `update_page`'s
 * against the page's `currentBody`, so the blocks it left as they were keep their text). A document
 * that is not one of GitBook's is a 400 naming the change.
 */
async function preparedChange(
  change: ContentChange,
  index: number,
  currentBody?: CurrentBody,
): Promise<PreparedChange> {
  if ("type" in change || change.operation === "delete_page") return change;
  const markdownOf = async (sent: MarkdownBody | Schema<"JSONDocumentBody">): Promise<MarkdownBody> => {
    if ("markdown" in sent) return sent;
    const previous = change.operation === "update_page" ? await currentBody?.(change.page) : undefined;
    try {
      return { markdown: await contentEngine().fromDocument(sent.document, previous) };
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 400) throw err;
      throw invalidChange(change, index, err.message.replace(/\.$/, ""));
    }
  };
  if (change.operation === "insert_page") return { ...change, document: await markdownOf(change.document) };
  const { document, ...unchanged } = change;
  return document === undefined ? unchanged : { ...unchanged, document: await markdownOf(document) };
}

/**
 * What a GitBook change's page metadata makes of the front matter of the page's body (see
 * `GitBookPageMetadata` in the contract): "" and false remove a key, as they are the default. An emoji
 * or an adaptive-content condition, which Quire cannot keep, is a 400 naming the change.
 */
function frontMatterChanges(change: PreparedGitBookChange, index: number): FrontMatterChanges {
  if (change.operation === "delete_page") return {};
  if (change.emoji)
    throw invalidChange(change, index, "Quire keeps no emoji on pages (set an `icon` instead)");
  if (change.condition)
    throw invalidChange(change, index, "Quire has no adaptive content: `condition` can only be empty");
  const changes: FrontMatterChanges = {};
  for (const key of ["description", "icon"] as const)
    if (change[key] !== undefined) changes[key] = change[key] || null;
  for (const key of ["hidden", "noIndex", "noRobotsIndex"] as const)
    if (change[key] !== undefined) changes[key] = change[key] || null;
  return changes;
}

/**
 * The change with its page metadata written into the front matter of the body it stores (sent, or
 * the page's current one, `pageBody`), the title a leading heading gave it resolved first, since a body
 * opening with front matter has none. A front matter sent in the body keeps its own values.
 */
async function withMetadata(
  change: PreparedGitBookChange,
  index: number,
  leadingTitles: PreparedEdit["leadingTitles"],
  pageBody: (pageId: string) => Promise<string | undefined>,
): Promise<PreparedGitBookChange> {
  const changes = frontMatterChanges(change, index);
  if (change.operation === "delete_page" || Object.keys(changes).length === 0) return change;
  const engine = contentEngine();
  if (change.operation === "insert_page") {
    const heading = leadingTitles.get(change.document.markdown);
    const body = heading?.body ?? change.document.markdown;
    return {
      ...change,
      title: heading?.title ?? change.title ?? UNTITLED,
      document: { markdown: await engine.withFrontMatter(body, changes, { keepWritten: true }) },
    };
  }
  const sent = change.document?.markdown;
  const body = sent ?? (await pageBody(change.page));
  // A page the content does not hold: applying the change says so.
  if (body === undefined) return change;
  const markdown = await engine.withFrontMatter(body, changes, { keepWritten: sent !== undefined });
  return { ...change, document: { markdown } };
}

/**
 * Reads every body the edit brings with the content engine, before any transaction opens: GitBook's
 * JSON documents become Markdown (an update's against its page's `currentBody`, when given), a body
 * the engine cannot process is a 422 before anything is locked, and storing the edit then finds each
 * analysis in the engine's cache instead of waiting for a worker while it holds the database.
 */
export async function prepareContentEdit(
  sent: readonly ContentChange[],
  pages: readonly NewPage[] = [],
  currentBody?: CurrentBody,
): Promise<PreparedEdit> {
  const engine = contentEngine();
  // One at a time: a batch of documents never fills the engine's queue ahead of other requests.
  const changes: PreparedChange[] = [];
  for (const [index, change] of sent.entries())
    changes.push(await preparedChange(change, index, currentBody));
  const bodies = [...changes.flatMap(bodyOf), ...pages.map((page) => page.markdown)];
  const analyses = await engine.analyzeAll(bodies);
  const headingOf = new Map(bodies.map((body, i) => [body, analyses[i]?.leadingTitle]));
  const leadingTitles = new Map<string, { title: string; body: string }>();
  for (const change of changes) {
    if ("type" in change || change.operation !== "insert_page") continue;
    const markdown = change.document.markdown;
    const heading = headingOf.get(markdown);
    if (heading)
      leadingTitles.set(markdown, { title: heading.title, body: markdown.slice(heading.bodyStart) });
  }
  // Page metadata goes into the front matter of the bodies; a page's body as an earlier change of
  // the batch left it is the one a later change of its metadata edits.
  const edited = new Map<string, string>();
  const pageBody = async (pageId: string) => edited.get(pageId) ?? (await currentBody?.(pageId));
  for (const [index, change] of changes.entries()) {
    if ("type" in change) continue;
    const prepared = await withMetadata(change, index, leadingTitles, pageBody);
    changes[index] = prepared;
    if (prepared.operation === "update_page" && prepared.document)
      edited.set(prepared.page, prepared.document.markdown);
  }
  await engine.analyzeAll([
    ...[...leadingTitles.values()].map(({ body }) => body),
    ...changes.flatMap(bodyOf),
  ]);
  return { changes, pages, leadingTitles };
}

/**
 * The current bodies of the pages of a revision of the space (a change request's, for the documents
 * its edit sends): its page tree read once, on the first page asked for.
 */
export function revisionBodies(db: Db, spaceId: string, revisionId: string): CurrentBody {
  const storage = new ContentStorage(db, spaceId);
  let tree: Promise<PageTree> | undefined;
  return async (pageId) => {
    tree ??= revisionOf(db, spaceId, revisionId).then((revision) => treeOf(storage, revision));
    const entry = (await tree).get(pageId);
    if (!entry) return undefined;
    const [body] = await storage.bodies([entry.document]);
    return body;
  };
}

/**
 * Reads, with the content engine, the bodies of the change request's pages that main does not have,
 * before a merge's transaction opens: storing and indexing the merge then finds their analyses kept,
 * instead of waiting for a worker while it holds the database (after a restart, say).
 */
export async function prepareMerge(
  db: Db,
  space: Pick<SpaceTable, "id" | "revision_id">,
  changeRequest: Pick<ChangeRequestRow, "revision_id">,
): Promise<void> {
  const storage = new ContentStorage(db, space.id);
  const treeAt = async (id: string): Promise<PageTree> => treeOf(storage, await revisionOf(db, space.id, id));
  const [main, proposed] = await Promise.all([treeAt(space.revision_id), treeAt(changeRequest.revision_id)]);
  const known = new Set([...main.entries()].map((page) => page.document));
  const changed = [...proposed.entries()].flatMap((page) =>
    page.document !== null && !known.has(page.document) ? [page.document] : [],
  );
  const bodies = await storage.documents(changed);
  await contentEngine().analyzeAll([...bodies.values()], { refusedAsEmpty: true });
}

/**
 * Applies a prepared batch of changes, then inserts its `pages`, to a change request's content as one
 * new `edits` revision, and records the caller as a contributor. A change that cannot apply is a 400
 * before any state is checked (409 for a deleted space, or a change request that is archived or merged).
 */
export async function editChangeRequestContent(
  tx: Transaction,
  { ids, now }: { ids: IdGenerator; now: string },
  args: {
    spaceId: string;
    changeRequestId: string;
    userId: string;
    edit: PreparedEdit;
  },
): Promise<{ space: SpaceTable; changeRequest: ChangeRequestRow }> {
  return editDraft(tx, { ids, now }, args, (draft, storage) => {
    applyChanges(draft, storage, ids, args.edit);
    for (const { id, title, parent, markdown } of args.edit.pages)
      draft.insert({ id, title, parent, placement: {}, document: storage.saveDocument(markdown) });
  });
}

/**
 * The change request's content as `edit` leaves a draft of it, stored as one new `edits` revision with
 * the caller a contributor; 409 for a deleted space or a change request that is merged or archived.
 */
async function editDraft(
  tx: Transaction,
  { ids, now }: { ids: IdGenerator; now: string },
  args: { spaceId: string; changeRequestId: string; userId: string },
  edit: (draft: ContentDraft, storage: ContentStorage) => void,
): Promise<{ space: SpaceTable; changeRequest: ChangeRequestRow }> {
  const space = await lockSpace(tx, args.spaceId);
  const changeRequest = await changeRequestOf(tx, args.spaceId, args.changeRequestId);
  const storage = new ContentStorage(tx, space.id);
  const current = await revisionOf(tx, space.id, changeRequest.revision_id);
  const draft = new ContentDraft(await allEntries(storage, current.root), now);
  edit(draft, storage);
  assertSpaceNotDeleted(space);
  if (changeRequest.status === "merged" || changeRequest.status === "archived")
    throw conflict(
      `The change request is ${changeRequest.status}; its content cannot change.`,
      "change_request_closed",
    );
  const revision = await insertRevision(tx, storage, {
    id: ids.next(),
    space_id: space.id,
    parent_id: current.id,
    merge_parent_id: null,
    type: "edits",
    root: await updateTrie(storage, current.root, draft.pageChanges()),
    author_id: args.userId,
    created_at: now,
  });
  await addContributor(tx, changeRequest.id, args.userId, now);
  return {
    space,
    changeRequest: await updateChangeRequest(tx, changeRequest, { revision_id: revision.id }, now),
  };
}

/** A page of the content `replaceChangeRequestContent` makes: its id is kept when the content has it. */
export interface ReplacingPage {
  id: string;
  parent: string | null;
  title: string;
  kind?: "group" | "link";
  href?: string;
  /** The slug of a page new to the content (kept by the pages it holds already). */
  slug?: string;
  /** The body; "" for none (groups and links have none). */
  markdown: string;
}

/**
 * Makes the change request's content `pages` (in order, each after its parent), as one revision: pages
 * it holds already are updated and moved only where they differ, the others inserted, and the pages
 * not listed removed. An import's content, whatever the content was.
 */
export async function replaceChangeRequestContent(
  tx: Transaction,
  context: { ids: IdGenerator; now: string },
  args: { spaceId: string; changeRequestId: string; userId: string; pages: readonly ReplacingPage[] },
): Promise<{ space: SpaceTable; changeRequest: ChangeRequestRow }> {
  return editDraft(tx, context, args, (draft, storage) => {
    const wanted = new Map(args.pages.map((page) => [page.id, page]));
    const childrenOf = new Map<string | null, string[]>();
    for (const page of args.pages) {
      const existing = draft.get(page.id);
      // A body the page holds already is not written again: an import of a thousand pages with one
      // changed writes one document.
      const kept = page.markdown === "" ? null : contentHash(page.markdown);
      const document =
        page.kind !== undefined
          ? null
          : existing?.document === kept
            ? kept
            : storage.saveDocument(page.markdown);
      // A page whose kind changed is a new page of the same id: removed, then inserted below.
      if (existing && existing.kind !== page.kind) draft.remove(page.id);
      const current = draft.get(page.id);
      if (!current) {
        draft.insert({
          id: page.id,
          title: page.title,
          parent: page.parent,
          placement: {},
          document,
          ...(page.kind !== undefined && { kind: page.kind }),
          ...(page.href !== undefined && { href: page.href }),
          ...(page.slug !== undefined && { slug: page.slug }),
        });
      } else {
        if (current.title !== page.title || current.document !== document || current.href !== page.href)
          draft.update(page.id, {
            title: page.title,
            document,
            ...(page.href !== undefined && { href: page.href }),
          });
        if (current.parent !== page.parent) draft.move(page.id, page.parent, {});
      }
      childrenOf.set(page.parent, [...(childrenOf.get(page.parent) ?? []), page.id]);
    }
    for (const entry of [...draft.entries()])
      if (!wanted.has(entry.id) && draft.get(entry.id)) draft.remove(entry.id);
    for (const [parent, ids] of childrenOf) {
      const order = draft.children(parent).map((entry) => entry.id);
      if (order.every((id, i) => id === ids[i])) continue;
      ids.forEach((id, i) => {
        const previous = ids[i - 1];
        draft.move(id, parent, previous === undefined ? { index: 0 } : { after: previous });
      });
    }
  });
}
