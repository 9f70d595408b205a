import type { ReplacingPage } from "../change-requests/index.js";
import { FRONT_MATTER } from "../content/engine/front-matter.js";
import type { FrontMatter } from "../content/engine/gitbook.js";
import type { PageTree } from "../content/pages.js";
import type { PageEntry } from "../content/trie.js";
import type { RepoPage, Repository } from "./format.js";

/**
 * Between a repository's pages (GitBook's format, see repository.ts) and a space's page tree. A page's
 * front matter stays at the top of its body in the space (where the site reads its description and
 * whether it is hidden), as the file wrote it; its title heading becomes its title.
 */

/** A repository's path of a content file: `projectDirectory/root/path`. */
export function repositoryPath(
  repository: Pick<Repository, "config">,
  projectDirectory: string,
  path: string,
) {
  return [projectDirectory, repository.config.root, path].filter(Boolean).join("/");
}

/**
 * The pages of the space that hold the repository's: a page keeps its id when the same file held it at
 * the last synchronization, else when a page of the same kind and title is left, else gets a new one.
 */
export function importedPages(
  repository: Repository,
  texts: Readonly<Record<string, string>>,
  {
    base,
    paths,
    projectDirectory,
    newId,
  }: {
    base: PageTree;
    /** The file of each page at the last synchronization. */
    paths: ReadonlyMap<string, string>;
    projectDirectory: string;
    newId: () => string;
  },
): { pages: ReplacingPage[]; pagePaths: Map<string, string> } {
  const byPath = new Map<string, string>();
  for (const [id, path] of paths) if (base.get(id)) byPath.set(path, id);
  // A page whose file is still there is that file's: no other page takes it by its title.
  const keptByFile = new Set(documentPaths(repository.pages).flatMap((path) => byPath.get(path) ?? []));
  const byTitle = new Map<string, PageEntry[]>();
  for (const entry of base.inOrder()) {
    const key = `${entry.kind ?? "document"}\n${entry.title}`;
    byTitle.set(key, [...(byTitle.get(key) ?? []), entry]);
  }
  const used = new Set<string>();
  const idOf = (page: RepoPage) => {
    const fromPath = page.kind === "document" ? byPath.get(page.path) : undefined;
    if (fromPath !== undefined && !used.has(fromPath)) return fromPath;
    const sameTitle = byTitle.get(`${page.kind}\n${page.title}`) ?? [];
    return sameTitle.find((entry) => !used.has(entry.id) && !keptByFile.has(entry.id))?.id ?? newId();
  };

  const pages: ReplacingPage[] = [];
  const pagePaths = new Map<string, string>();
  const walk = (items: readonly RepoPage[], parent: string | null) => {
    for (const page of items) {
      const id = idOf(page);
      used.add(id);
      if (page.kind === "link") {
        pages.push({ id, parent, title: page.title, kind: "link", href: page.href, markdown: "" });
        continue;
      }
      if (page.kind === "group") {
        pages.push({ id, parent, title: page.title, kind: "group", markdown: "" });
      } else {
        const file = texts[repositoryPath(repository, projectDirectory, page.path)] ?? "";
        const head = FRONT_MATTER.exec(file)?.[0] ?? "";
        const markdown = head && page.markdown ? `${head}\n${page.markdown}` : head || page.markdown;
        // The file's name as the slug: the relative links between files then name the pages' paths.
        pages.push({ id, parent, title: page.title, slug: page.slug, markdown });
        pagePaths.set(id, page.path);
      }
      walk(page.children, id);
    }
  };
  walk(repository.pages, null);
  return { pages, pagePaths };
}

/** How a redirect's source path is kept and looked up: without its outer slashes. */
export const redirectSource = (path: string) => path.replace(/^\/+|\/+$/g, "");

/**
 * `.gitbook.yaml`'s redirects (a source path to a file, relative to the content's root) as each source
 * to the page that file holds; a redirect to a file that holds no page leads nowhere and is left out.
 */
export function redirectedPages(
  redirects: Readonly<Record<string, string>>,
  pagePaths: ReadonlyMap<string, string>,
): Record<string, string> {
  const pageOfFile = new Map([...pagePaths].map(([id, path]) => [path, id]));
  const pages: Record<string, string> = {};
  for (const [source, file] of Object.entries(redirects)) {
    const page = pageOfFile.get(file.replace(/^(?:\.?\/)+/, ""));
    if (page !== undefined && redirectSource(source) !== "") pages[redirectSource(source)] = page;
  }
  return pages;
}

function documentPaths(pages: readonly RepoPage[]): string[] {
  return pages.flatMap((page) =>
    page.kind === "link"
      ? []
      : [...(page.kind === "document" ? [page.path] : []), ...documentPaths(page.children)],
  );
}

/** A body without the front matter opening it, and the line breaks after that. */
function withoutFrontMatter(body: string): string {
  const head = FRONT_MATTER.exec(body)?.[0];
  return head === undefined ? body : body.slice(head.length).replace(/^(?:\r?\n)+/, "");
}

/**
 * The space's pages as the repository holds them: each document with the file it was in at the last
 * synchronization ("" for a new one: the writer places it), its front matter read by the content engine.
 */
export function repositoryPages(
  tree: PageTree,
  {
    bodies,
    frontMatters,
    paths,
  }: {
    bodies: ReadonlyMap<string, string>;
    frontMatters: ReadonlyMap<string, FrontMatter | undefined>;
    paths: ReadonlyMap<string, string>;
  },
): RepoPage[] {
  const pagesUnder = (parent: string | null): RepoPage[] =>
    tree.children(parent).map((entry): RepoPage => {
      if (entry.kind === "link") return { kind: "link", title: entry.title, href: entry.href ?? "" };
      const children = pagesUnder(entry.id);
      if (entry.kind === "group") return { kind: "group", title: entry.title, children };
      const body = entry.document === null ? "" : (bodies.get(entry.document) ?? "");
      const frontMatter = entry.document === null ? undefined : frontMatters.get(entry.document);
      const frontMatterSource = FRONT_MATTER.exec(body)?.[0];
      return {
        kind: "document",
        id: entry.id,
        path: paths.get(entry.id) ?? "",
        slug: entry.slug,
        title: entry.title,
        ...frontMatter,
        markdown: withoutFrontMatter(body),
        ...(frontMatterSource !== undefined && { frontMatterSource }),
        children,
      };
    });
  return pagesUnder(null);
}
