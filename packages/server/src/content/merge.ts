import type { Schema } from "@quire/api-types";
import { diff3Merge } from "node-diff3";
import { compareOrder, keyBetween } from "./order.js";
import type { PageTree } from "./pages.js";
import { uniqueSlug } from "./slug.js";
import type { PageChange, PageEntry } from "./trie.js";

export type MergeConflict = Schema<"MergeConflict">;

/** Reads and stores page bodies by hash (src/content/storage.ts). */
export interface Bodies {
  documents(hashes: Iterable<string>): Promise<Map<string, string>>;
  saveDocument(markdown: string): string | null;
}

export type MergeOutcome = { pages: PageEntry[]; conflicts?: undefined } | { conflicts: MergeConflict[] };

/** The fields a merge compares, page by page (times follow the side they come from). */
const sameContent = (a: PageEntry, b: PageEntry) =>
  a.title === b.title &&
  a.parent === b.parent &&
  a.order === b.order &&
  a.slug === b.slug &&
  a.document === b.document &&
  a.kind === b.kind &&
  a.href === b.href;

/** A value changed on one side only, or the same way on both; `conflict` when both changed it differently. */
function pick<T>(base: T, ours: T, theirs: T): { value: T } | "conflict" {
  if (ours === theirs || theirs === base) return { value: ours };
  if (ours === base) return { value: theirs };
  return "conflict";
}

const lines = (text: string) => (text === "" ? [] : text.split("\n"));

/**
 * Three-way merge of page trees: `ours` (a change request) and `theirs` (the main content), both
 * derived from `base`. Pages match by id; title, parent, order and a link's href take the side that
 * changed them (the same change on both sides is no conflict); bodies changed on both sides merge
 * line by line with diff3, and overlapping different hunks conflict. A page deleted on one side and
 * changed on the other, or whose parent is gone, conflicts. Without conflicts, siblings that got the
 * same order key and slugs that collide are made unique, the main content's pages keeping theirs.
 */
export async function mergeContents(
  base: PageTree,
  ours: PageTree,
  theirs: PageTree,
  bodies: Bodies,
): Promise<MergeOutcome> {
  const conflicts: MergeConflict[] = [];
  const merged = new Map<string, PageEntry>();
  /** Pages left out of `merged` by a conflict: their children's parent is not missing. */
  const conflicted = new Set<string>();
  const bodyMerges: { base: PageEntry; ours: PageEntry; theirs: PageEntry; merged: PageEntry }[] = [];

  const ids = new Set([...base.entries(), ...ours.entries(), ...theirs.entries()].map((entry) => entry.id));
  for (const id of ids) {
    const [b, o, t] = [base.get(id), ours.get(id), theirs.get(id)];
    if (!o || !t) {
      // Deleted (or never there) on one side: the other side's page, unless it changed since base.
      const kept = o ?? t;
      if (!kept) continue;
      if (!b) merged.set(id, kept);
      else if (!sameContent(kept, b)) {
        conflicts.push(conflictOf(kept, "deleted", b, o, t));
        conflicted.add(id);
      }
      continue;
    }
    if (!b || sameContent(t, b)) {
      merged.set(id, sameContent(o, t) ? t : o);
      continue;
    }
    if (sameContent(o, b)) {
      merged.set(id, t);
      continue;
    }
    const title = pick(b.title, o.title, t.title);
    const parent = pick(b.parent, o.parent, t.parent);
    const order = pick(b.order, o.order, t.order);
    const document = pick(b.document, o.document, t.document);
    const slug = pick(b.slug, o.slug, t.slug);
    const href = pick(b.href, o.href, t.href);
    // A page whose kind one side changed is another page (its body or href means something else):
    // it conflicts with any other change, as its title, which is what readers know it by.
    if (title === "conflict" || href === "conflict" || o.kind !== t.kind)
      conflicts.push(conflictOf(o, "title", b, o, t));
    if (parent === "conflict") conflicts.push(conflictOf(o, "parent", b, o, t));
    if (order === "conflict") conflicts.push(conflictOf(o, "order", b, o, t));
    if (
      title === "conflict" ||
      href === "conflict" ||
      o.kind !== t.kind ||
      parent === "conflict" ||
      order === "conflict"
    ) {
      conflicted.add(id);
      continue;
    }
    const entry: PageEntry = {
      ...o,
      title: title.value,
      parent: parent.value,
      order: order.value,
      // Slugs only change when a page is moved or de-duplicated: the main content's wins.
      slug: slug === "conflict" ? t.slug : slug.value,
      document: document === "conflict" ? null : document.value,
      ...(href.value !== undefined && { href: href.value }),
      updatedAt: o.updatedAt > t.updatedAt ? o.updatedAt : t.updatedAt,
    };
    merged.set(id, entry);
    if (document === "conflict") bodyMerges.push({ base: b, ours: o, theirs: t, merged: entry });
  }

  if (bodyMerges.length > 0) {
    const texts = await bodies.documents(
      bodyMerges
        .flatMap((m) => [m.base.document, m.ours.document, m.theirs.document])
        .filter((h) => h !== null),
    );
    const text = (hash: string | null) => (hash === null ? "" : (texts.get(hash) ?? ""));
    for (const m of bodyMerges) {
      const [b, o, t] = [text(m.base.document), text(m.ours.document), text(m.theirs.document)];
      const regions = diff3Merge(lines(o), lines(b), lines(t));
      if (regions.some((region) => region.conflict)) {
        conflicts.push({
          ...conflictOf(m.ours, "markdown", m.base, m.ours, m.theirs),
          changeRequest: o,
          main: t,
          base: b,
        });
      } else {
        m.merged.document = bodies.saveDocument(regions.flatMap((region) => region.ok ?? []).join("\n"));
      }
    }
  }

  const parentConflict = (id: string) =>
    conflictOf(merged.get(id) as PageEntry, "parent", base.get(id), ours.get(id), theirs.get(id));
  for (const entry of merged.values()) {
    if (entry.parent !== null && !merged.has(entry.parent) && !conflicted.has(entry.parent))
      conflicts.push(parentConflict(entry.id));
  }
  for (const id of cycleMembers(merged)) conflicts.push(parentConflict(id));
  if (conflicts.length > 0) return { conflicts };
  return { pages: settleSiblings(merged, theirs) };
}

function conflictOf(
  page: PageEntry,
  field: MergeConflict["field"],
  base: PageEntry | undefined,
  ours: PageEntry | undefined,
  theirs: PageEntry | undefined,
): MergeConflict {
  const value = (entry: PageEntry | undefined) => {
    if (!entry) return undefined;
    if (field === "title") return entry.title;
    if (field === "parent") return entry.parent ?? undefined;
    return undefined;
  };
  const [changeRequest, main, before] = [value(ours), value(theirs), value(base)];
  return {
    page: page.id,
    title: (ours ?? page).title,
    field,
    ...(changeRequest !== undefined && { changeRequest }),
    ...(main !== undefined && { main }),
    ...(before !== undefined && { base: before }),
  };
}

/** Pages whose chain of parents loops (each side moved one page under the other). */
function cycleMembers(pages: Map<string, PageEntry>): string[] {
  const members = new Set<string>();
  const settled = new Set<string>();
  for (const start of pages.keys()) {
    const chain: string[] = [];
    let id: string | null = start;
    while (id !== null && !settled.has(id) && !chain.includes(id)) {
      chain.push(id);
      id = pages.get(id)?.parent ?? null;
    }
    if (id !== null && chain.includes(id))
      for (const member of chain.slice(chain.indexOf(id))) members.add(member);
    for (const visited of chain) settled.add(visited);
  }
  return [...members];
}

/**
 * Among each parent's children: distinct order keys (two sides can choose the same key for pages they
 * inserted at one place) and distinct slugs, the main content's pages keeping theirs.
 */
function settleSiblings(merged: Map<string, PageEntry>, theirs: PageTree): PageEntry[] {
  const byParent = new Map<string | null, PageEntry[]>();
  for (const entry of merged.values())
    byParent.set(entry.parent, [...(byParent.get(entry.parent) ?? []), entry]);
  const settled: PageEntry[] = [];
  for (const siblings of byParent.values()) {
    const mains = (entry: PageEntry) => {
      const main = theirs.get(entry.id);
      return main !== undefined && main.parent === entry.parent;
    };
    siblings.sort((a, b) =>
      a.order === b.order ? Number(mains(b)) - Number(mains(a)) || compareOrder(a, b) : compareOrder(a, b),
    );
    const slugs = new Set(siblings.filter((entry) => mains(entry)).map((entry) => entry.slug));
    let previous: string | null = null;
    for (const [i, sibling] of siblings.entries()) {
      let entry = sibling;
      if (previous !== null && entry.order <= previous) {
        const next = siblings.slice(i + 1).find((later) => later.order > (previous as string));
        entry = { ...entry, order: keyBetween(previous, next?.order ?? null) };
      }
      if (!mains(entry)) {
        const slug = uniqueSlug(entry.slug, (candidate) => slugs.has(candidate));
        if (slug !== entry.slug) entry = { ...entry, slug };
        slugs.add(slug);
      }
      previous = entry.order;
      settled.push(entry);
    }
  }
  return settled;
}

/** The page changes that turn `from` into exactly `pages`. */
export function changesBetween(from: PageTree, pages: readonly PageEntry[]): PageChange[] {
  const changes: PageChange[] = [];
  const kept = new Set<string>();
  for (const entry of pages) {
    kept.add(entry.id);
    const before = from.get(entry.id);
    if (
      !before ||
      !sameContent(before, entry) ||
      before.updatedAt !== entry.updatedAt ||
      before.createdAt !== entry.createdAt
    )
      changes.push([entry.id, entry]);
  }
  for (const entry of from.entries()) if (!kept.has(entry.id)) changes.push([entry.id, null]);
  return changes;
}
