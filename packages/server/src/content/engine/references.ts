import type { PageTree } from "../pages.js";
import type { PageEntry } from "../trie.js";

/**
 * The one resolver of what a page body points at, in a revision (behaviour §2.5): every consumer (the
 * links API, the published site) turns a URL written in a body into a target here, and only here.
 */

/** What a URL written on a page points at. */
export type Reference =
  /** A page of the revision, and the fragment the URL named (`#…`, without the `#`), if any. */
  | { kind: "page"; page: PageEntry; fragment?: string }
  /**
   * A file, by id (`/files/<id>`), or by name (a relative link into GitBook's `.gitbook/assets/`, as
   * Git Sync imports them): whether the revision has it is the caller's to say (`referencedFile`).
   */
  | { kind: "file"; fileId: string }
  | { kind: "file"; fileName: string }
  /** A place on the same page (`#…`). */
  | { kind: "fragment"; fragment: string }
  /** Anything else: an absolute URL, or a path of the server's own outside the content forms. */
  | { kind: "url"; url: string; inApp: boolean }
  /** A page the revision does not have, by what the URL named. */
  | { kind: "missing-page"; wanted: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The URL of a file in a body: `/files/<id>`, the form uploads and imports write. */
export function fileMarkdownUrl(fileId: string): string {
  return `/files/${fileId}`;
}

/** The id of a file from a URL of `fileMarkdownUrl`'s form, or undefined. */
export function fileIdOfUrl(url: string): string | undefined {
  const match = /^\/files\/([^/?#]+)\/?(?:[?#].*)?$/.exec(url);
  return match?.[1] && decodeURIComponent(match[1]);
}

/** A path without its `?query` and `#fragment`, decoded when it can be. */
function bare(url: string): string {
  const cut = url.search(/[?#]/);
  const path = cut < 0 ? url : url.slice(0, cut);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The fragment of a URL, decoded, without the `#`; undefined without one. */
function fragmentOf(url: string): string | undefined {
  const at = url.indexOf("#");
  if (at < 0 || at === url.length - 1) return undefined;
  try {
    return decodeURIComponent(url.slice(at + 1));
  } catch {
    return url.slice(at + 1);
  }
}

/** Where GitBook keeps a space's files in its repository, from the content's root. */
const ASSETS = ".gitbook/assets/";

/**
 * The path a relative link names, from the file `fromFile` holding it: resolved against its folder,
 * `.` and `..` segments applied. Undefined when it climbs above the top level.
 */
function relativePath(fromFile: string, link: string): string | undefined {
  const segments = fromFile.split("/").slice(0, -1);
  for (const segment of bare(link).split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  return segments.join("/");
}

/** The file a relative link from `fromFile` names (see `relativePath`), and the anchor it leads to. */
export function linkedFile(fromFile: string, link: string): { file: string; anchor?: string } | undefined {
  const file = relativePath(fromFile, link);
  const anchor = fragmentOf(link);
  return file === undefined ? undefined : { file, ...(anchor !== undefined && { anchor }) };
}

/** A page's path from its file's: `.md` and a final `README` dropped. */
const pagePathOfFile = (file: string) => file.replace(/\.md$/i, "").replace(/(^|\/)README$/i, "");

/** The page a relative Markdown link names, by path (see `relativePath`): `.md` and a final `README` dropped. */
export function relativePagePath(fromPath: string, link: string): string | undefined {
  const path = relativePath(fromPath, link);
  return path === undefined ? undefined : pagePathOfFile(path);
}

/**
 * The name of a file of `.gitbook/assets/` that a link names: GitBook keeps them at the content's root,
 * so a link that climbs further than its page's folder (`../../.gitbook/assets/x.png` from a page whose
 * repository folder Quire does not know) names the same file.
 */
function assetName(resolved: string | undefined, link: string): string | undefined {
  if (resolved?.startsWith(ASSETS)) return resolved.slice(ASSETS.length);
  const path = bare(link);
  const at = path.lastIndexOf(ASSETS);
  return at >= 0 && /^(?:\.\.\/)*$/.test(path.slice(0, at)) ? path.slice(at + ASSETS.length) : undefined;
}

/** The file a `file` reference names among `files` (by id): for a name, the last added of that name. */
export function referencedFile<File extends { id: string; name: string }>(
  files: ReadonlyMap<string, File>,
  reference: { fileId: string } | { fileName: string },
): File | undefined {
  if ("fileId" in reference) return files.get(reference.fileId);
  let found: File | undefined;
  for (const file of files.values()) if (file.name === reference.fileName) found = file;
  return found;
}

/** Resolves URLs written in the pages of one revision. */
export class References {
  readonly #tree: PageTree;
  readonly #publicBase: string;
  readonly #files: ReadonlyMap<string, string>;
  #pagesByFile?: Map<string, PageEntry>;

  /**
   * `publicBase`: the server's public URL; absolute URLs under it are the application's own.
   * `files`: the file of each page in a Git repository (Git Sync's, relative to the content's root),
   * which its relative links are written from; a page without one is read as the file at its path.
   */
  constructor(tree: PageTree, publicBase: string, files: ReadonlyMap<string, string> = new Map()) {
    this.#tree = tree;
    this.#publicBase = publicBase;
    this.#files = files;
  }

  /** The file `page`'s links are written from: its repository's, else one at its path. */
  #fileOf(page: PageEntry): string {
    return this.#files.get(page.id) ?? `${this.#tree.path(page)}.md`;
  }

  /** The page at a path of the repository's files, else of the tree. */
  #pageAt(path: string): PageEntry | undefined {
    this.#pagesByFile ??= new Map(
      [...this.#files].flatMap(([id, file]) => {
        const page = this.#tree.get(id);
        return page ? [[pagePathOfFile(file), page] as const] : [];
      }),
    );
    return this.#pagesByFile.get(path) ?? this.#tree.atPath(path);
  }

  /**
   * What `url`, written on page `from`, points at: `/pages/<id>` or `/pages/<path>`, a page's path from
   * the site's root (`/guides/install`) and relative paths (`./x.md`, `../x/README.md`, `x`) name a
   * page, with an optional `#fragment`; `/files/<id>` and `.gitbook/assets/<name>` a file; `#x` a place
   * on the same page; GitBook's `/broken/…` a page it had lost; any other absolute URL or server path
   * is a URL, never fetched.
   */
  resolve(from: PageEntry, url: string): Reference {
    if (url.startsWith("#")) return { kind: "fragment", fragment: fragmentOf(url) ?? "" };
    if (SCHEME.test(url) || url.startsWith("//")) {
      const inApp = url === this.#publicBase || url.startsWith(`${this.#publicBase}/`);
      return { kind: "url", url, inApp };
    }
    const fileId = fileIdOfUrl(url);
    if (fileId !== undefined) return { kind: "file", fileId };
    let wanted: string | undefined;
    let page: PageEntry | undefined;
    if (url.startsWith("/pages/")) {
      wanted = bare(url.slice("/pages/".length)).replace(/\/+$/, "");
      page = this.#tree.get(wanted) ?? this.#tree.atPath(wanted);
    } else if (url.startsWith("/broken/")) {
      // GitBook's export writes a link to a page it no longer had so.
      wanted = url;
    } else if (url.startsWith("/")) {
      wanted = pagePathOfFile(bare(url).replace(/^\/+|\/+$/g, ""));
      page = this.#pageAt(wanted);
      // A path of this server outside the content forms: a URL of the application, not a page.
      if (!page) return { kind: "url", url, inApp: true };
    } else {
      const path = relativePath(this.#fileOf(from), url);
      const asset = assetName(path, url);
      if (asset !== undefined) return { kind: "file", fileName: asset };
      wanted = path === undefined ? undefined : pagePathOfFile(path);
      page = wanted === undefined ? undefined : this.#pageAt(wanted);
    }
    if (!page) return { kind: "missing-page", wanted: wanted ?? url };
    const fragment = fragmentOf(url);
    return { kind: "page", page, ...(fragment !== undefined && { fragment }) };
  }
}
