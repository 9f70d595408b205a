import { compareOrder, keyBetween } from "./order.js";
import { slugify, uniqueSlug } from "./slug.js";
import type { PageChange, PageEntry, PageKind } from "./trie.js";

/** A change that cannot apply to the content as it is; the caller says which change it was. */
export class InvalidChange extends Error {}

/** The pages of a revision, with their tree: children in order, paths. */
export class PageTree {
  protected readonly pages: Map<string, PageEntry>;
  #children: Map<string | null, PageEntry[]> | undefined;
  #inOrder: PageEntry[] | undefined;
  #byPath: Map<string, PageEntry> | undefined;

  constructor(entries: Iterable<PageEntry>) {
    this.pages = new Map([...entries].map((entry) => [entry.id, entry]));
  }

  get(id: string): PageEntry | undefined {
    return this.pages.get(id);
  }

  get size(): number {
    return this.pages.size;
  }

  entries(): IterableIterator<PageEntry> {
    return this.pages.values();
  }

  /** The pages directly under `parent` (null: the top level), in order. */
  children(parent: string | null): readonly PageEntry[] {
    if (!this.#children) {
      const index = new Map<string | null, PageEntry[]>();
      for (const entry of this.pages.values()) {
        const siblings = index.get(entry.parent);
        if (siblings) siblings.push(entry);
        else index.set(entry.parent, [entry]);
      }
      for (const siblings of index.values()) siblings.sort(compareOrder);
      this.#children = index;
    }
    return this.#children.get(parent) ?? [];
  }

  /** Every page, depth first (each page, then its children), in order. */
  inOrder(): readonly PageEntry[] {
    if (!this.#inOrder) {
      const ordered: PageEntry[] = [];
      const walk = (parent: string | null) => {
        for (const entry of this.children(parent)) {
          ordered.push(entry);
          walk(entry.id);
        }
      };
      walk(null);
      this.#inOrder = ordered;
    }
    return this.#inOrder;
  }

  /** The page at `path` (slugs from the top level down); "" is the first document, the space's root. */
  atPath(path: string): PageEntry | undefined {
    if (!this.#byPath) {
      this.#byPath = new Map(this.inOrder().map((entry) => [this.path(entry), entry]));
      const first = this.firstDocument(null);
      if (first) this.#byPath.set("", first);
    }
    return this.#byPath.get(path);
  }

  /** The first document (in order, depth first) under `parent`; null: in the whole tree. */
  firstDocument(parent: string | null): PageEntry | undefined {
    for (const entry of this.children(parent)) {
      const found = entry.kind === undefined ? entry : this.firstDocument(entry.id);
      if (found) return found;
    }
    return undefined;
  }

  /** The page's path: the slugs from the top level down to it. */
  path(entry: PageEntry): string {
    const slugs = [entry.slug];
    for (let up = this.ancestor(entry); up; up = this.ancestor(up)) slugs.unshift(up.slug);
    return slugs.join("/");
  }

  /** The page and every page under it. */
  subtree(id: string): string[] {
    const ids = [id];
    for (let i = 0; i < ids.length; i++)
      for (const child of this.children(ids[i] as string)) ids.push(child.id);
    return ids;
  }

  private ancestor(entry: PageEntry): PageEntry | undefined {
    return entry.parent === null ? undefined : this.pages.get(entry.parent);
  }

  protected changed(): void {
    this.#children = undefined;
    this.#inOrder = undefined;
    this.#byPath = undefined;
  }
}

/** Pages of a space that differ between two of its trees, by how, each list in `after`'s order. */
export interface PageChanges {
  created: string[];
  /** The title, slug, body, kind or href changed. */
  edited: string[];
  /** The parent or the place among the siblings changed. */
  moved: string[];
  deleted: string[];
}

/** How `after` differs from `before`, page by page; each list stops at `limit` ids. */
export function changedPages(before: PageTree, after: PageTree, limit = 1000): PageChanges {
  const changes: PageChanges = { created: [], edited: [], moved: [], deleted: [] };
  const add = (list: string[], id: string) => {
    if (list.length < limit) list.push(id);
  };
  for (const entry of after.inOrder()) {
    const old = before.get(entry.id);
    if (!old) {
      add(changes.created, entry.id);
      continue;
    }
    if (
      old.title !== entry.title ||
      old.slug !== entry.slug ||
      old.document !== entry.document ||
      old.kind !== entry.kind ||
      old.href !== entry.href
    )
      add(changes.edited, entry.id);
    if (old.parent !== entry.parent || old.order !== entry.order) add(changes.moved, entry.id);
  }
  for (const entry of before.inOrder()) if (!after.get(entry.id)) add(changes.deleted, entry.id);
  return changes;
}

/** The entry when its fields fit its kind: only documents have a body, links and only links an href. */
function checkedKind(entry: PageEntry): PageEntry {
  if (entry.kind !== undefined && entry.document !== null)
    throw new InvalidChange(`the ${entry.kind} page "${entry.id}" cannot have a body`);
  if ((entry.kind === "link") !== (entry.href !== undefined))
    throw new InvalidChange(
      entry.kind === "link"
        ? `the link page "${entry.id}" needs an href`
        : `the page "${entry.id}" is not a link: it cannot have an href`,
    );
  return entry;
}

/** Where a page goes among its siblings: an index, or next to a sibling. */
export type Placement = { index?: number } | { before: string } | { after: string };

/**
 * A page tree being edited: every edit checks what it refers to (`InvalidChange` otherwise) and is
 * remembered, so that the new revision writes only the pages that changed.
 */
export class ContentDraft extends PageTree {
  readonly #touched = new Set<string>();

  constructor(
    entries: Iterable<PageEntry>,
    private readonly now: string,
  ) {
    super(entries);
  }

  /**
   * A new page: a document (its body `document`), or with `kind` a group (child pages under a title)
   * or a link (to `href`), which have no body.
   */
  insert(fields: {
    id: string;
    title: string;
    parent: string | null;
    placement: Placement;
    document: string | null;
    kind?: PageKind;
    href?: string;
    /** The slug wanted (a repository's file name), made unique among the siblings; else the title's. */
    slug?: string;
  }): PageEntry {
    this.requireParent(fields.parent);
    const entry: PageEntry = {
      id: fields.id,
      parent: fields.parent,
      order: this.orderAt(fields.parent, fields.placement, fields.id),
      title: fields.title,
      slug: this.freeSlug(fields.parent, fields.slug ?? slugify(fields.title), fields.id),
      document: fields.document,
      createdAt: this.now,
      updatedAt: this.now,
      ...(fields.kind !== undefined && { kind: fields.kind }),
      ...(fields.href !== undefined && { href: fields.href }),
    };
    this.put(checkedKind(entry));
    return entry;
  }

  /** Gives a page the slug asked for; a sibling that has it already makes it an invalid change. */
  setSlug(id: string, slug: string): void {
    const entry = this.require(id);
    if (entry.slug === slug) return;
    if (this.children(entry.parent).some((sibling) => sibling.id !== id && sibling.slug === slug))
      throw new InvalidChange(`a sibling of the page "${id}" has the slug "${slug}" already`);
    this.put({ ...entry, slug, updatedAt: this.now });
  }

  /** Changes a page's title, its body (documents) or where it leads (links); the slug stays. */
  update(id: string, fields: { title?: string; document?: string | null; href?: string }): void {
    const entry = this.require(id);
    this.put(
      checkedKind({
        ...entry,
        ...(fields.title !== undefined && { title: fields.title }),
        ...(fields.document !== undefined && { document: fields.document }),
        ...(fields.href !== undefined && { href: fields.href }),
        updatedAt: this.now,
      }),
    );
  }

  /** Moves a page under another parent (null: the top level) and/or among its siblings. */
  move(id: string, parent: string | null, placement: Placement): void {
    const entry = this.require(id);
    this.requireParent(parent);
    if (parent !== null && this.subtree(id).includes(parent))
      throw new InvalidChange(`the page "${id}" cannot be moved under itself or one of its descendants`);
    const slug = parent === entry.parent ? entry.slug : this.freeSlug(parent, entry.slug, id);
    this.put({ ...entry, parent, slug, order: this.orderAt(parent, placement, id), updatedAt: this.now });
  }

  /** Removes a page and every page under it. */
  remove(id: string): void {
    this.require(id);
    for (const removed of this.subtree(id)) {
      this.pages.delete(removed);
      this.#touched.add(removed);
    }
    this.changed();
  }

  /** What changed, page by page, for `updateTrie`. */
  pageChanges(): PageChange[] {
    return [...this.#touched].map((id) => [id, this.pages.get(id) ?? null]);
  }

  private put(entry: PageEntry): void {
    this.pages.set(entry.id, entry);
    this.#touched.add(entry.id);
    this.changed();
  }

  private require(id: string): PageEntry {
    const entry = this.pages.get(id);
    if (!entry) throw new InvalidChange(`the page "${id}" does not exist`);
    return entry;
  }

  private requireParent(parent: string | null): void {
    if (parent === null) return;
    const entry = this.pages.get(parent);
    if (!entry) throw new InvalidChange(`the parent page "${parent}" does not exist`);
    // A link is one entry of the navigation, leading elsewhere: nothing is under it.
    if (entry.kind === "link")
      throw new InvalidChange(`the link page "${parent}" cannot have pages under it`);
  }

  private freeSlug(parent: string | null, slug: string, id: string): string {
    const siblings = this.children(parent).filter((sibling) => sibling.id !== id);
    return uniqueSlug(slug, (candidate) => siblings.some((sibling) => sibling.slug === candidate));
  }

  /** An order key that puts page `id` at `placement` among the other children of `parent`. */
  private orderAt(parent: string | null, placement: Placement, id: string): string {
    const siblings = this.children(parent).filter((sibling) => sibling.id !== id);
    let index = siblings.length;
    if ("before" in placement || "after" in placement) {
      const anchor = "before" in placement ? placement.before : placement.after;
      const found = siblings.findIndex((sibling) => sibling.id === anchor);
      if (found < 0)
        throw new InvalidChange(`the page "${anchor}" of the position is not a sibling under that parent`);
      index = "before" in placement ? found : found + 1;
    } else if (placement.index !== undefined) {
      index = Math.min(placement.index, siblings.length);
    }
    return keyBetween(siblings[index - 1]?.order ?? null, siblings[index]?.order ?? null);
  }
}
