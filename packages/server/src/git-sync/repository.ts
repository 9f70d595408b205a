import { posix } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { slug as slugify } from "github-slugger";
import type { List, ListItem, PhrasingContent, Root, RootContent } from "mdast";
import { toString as textOf } from "mdast-util-to-string";
import remarkParse from "remark-parse";
import remarkStringify from "remark-stringify";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { Document, isMap, parseDocument, parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { FRONT_MATTER } from "../content/engine/front-matter.js";
import { type FrontMatter, gitBookReader, type MetaLinkTarget } from "../content/engine/gitbook.js";
import { isMapping } from "../content/mapping.js";

/**
 * A space as GitBook's Git Sync lays it out in a repository, read and written back: `.gitbook.yaml`,
 * `SUMMARY.md` as the page tree, one Markdown file per page, `.gitbook/assets/` as the space's files.
 * These functions parse, so they run in the content engine's pool only (see format.ts).
 *
 * Paths of pages and assets are relative to the content root (`config.root`); the files maps are keyed
 * by the repository's own paths.
 */

/** Where the content is, relative to the project directory (root) and to the root (the others). */
export interface RepoConfig {
  /** "" for the project directory itself; no leading `./`, no trailing `/`. */
  root: string;
  readme: string;
  summary: string;
}

export interface RepoDocument extends FrontMatter {
  kind: "document";
  /** The caller's name for the page, carried through a write to name its placed path. */
  id?: string;
  /** The page's file; "" for a page the repository does not hold yet (the writer places it). */
  path: string;
  slug: string;
  title: string;
  /** The body as stored: without front matter, and without the title heading when the title came from it. */
  markdown: string;
  /**
   * The front matter as the space's page holds it (`---` lines included), when it has one: written as
   * it is, so that the keys Quire does not read (`name`, `tags`, `metadata`…) and the YAML's own
   * layout (`description: >-` folded) stay, also where the repository has no file of the page yet.
   */
  frontMatterSource?: string;
  children: RepoPage[];
}

/** A `##` heading of SUMMARY.md. */
export interface RepoGroup {
  kind: "group";
  /** The heading's text, without its HTML (GitBook's anchor `<a href="#x" id="x"></a>`). */
  title: string;
  /** The heading as SUMMARY.md wrote it after `## `, when read: written back so while the title holds. */
  heading?: string;
  children: RepoPage[];
}

/** An entry of SUMMARY.md to another site, or to an anchor of a page listed elsewhere in it. */
export interface RepoLink {
  kind: "link";
  title: string;
  /** As SUMMARY.md wrote it: a URL, or a file with its anchor relative to the summary's folder. */
  href: string;
}

export type RepoPage = RepoDocument | RepoGroup | RepoLink;

export interface Repository {
  config: RepoConfig;
  /** As `.gitbook.yaml` writes them: an old path of the site to the file it now leads to. */
  redirects: Record<string, string>;
  pages: RepoPage[];
  assets: string[];
}

/** A repository that cannot be read: a `.gitbook.yaml` that is not GitBook's. */
export type RepositoryOutcome = Repository | { invalid: string };

export interface ReadInput {
  files: Record<string, string>;
  /** Where the space's content lives in a monorepo: `.gitbook.yaml` and `root` are relative to it. */
  projectDirectory?: string;
}

export interface WriteInput {
  pages: RepoPage[];
  config: RepoConfig;
  redirects: Record<string, string>;
  /** What the repository held: what did not change is written back byte for byte. */
  previous?: Record<string, string>;
  projectDirectory?: string;
}

const CONFIG_FILE = ".gitbook.yaml";
const ASSETS = ".gitbook/assets/";
const DEFAULT_CONFIG: RepoConfig = { root: "", readme: "README.md", summary: "SUMMARY.md" };

// GitBook's blocks are parsed (as written) so that a tag line never reads as the title heading.
const pageParserFor = gitBookReader({ blocks: "tags" });
const summaryParser = unified().use(remarkParse);
/** SUMMARY.md and title headings as GitBook writes them: `*` bullets indented by their width. */
const writer = unified().use(remarkStringify, { bullet: "*", listItemIndent: "one" });

/** A page's file split into what the page's fields come from; the parts concatenated are the file. */
interface PageFile {
  /** The front matter with the line breaks after it, as written; "" when there is none. */
  head: string;
  /** The YAML of the front matter, edited in place so that the keys Quire does not read (`cover`…) stay. */
  yaml?: string;
  frontMatter: FrontMatter;
  /** The title heading with the line breaks after it, as written; "" when the file opens with none. */
  titleLine: string;
  /** The heading's title; once read as a page, the page's title, wherever it came from. */
  title?: string;
  markdown: string;
}

function skipBreaks(text: string, from: number): number {
  let at = from;
  while (text[at] === "\n" || text[at] === "\r") at++;
  return at;
}

/**
 * The page's opening: its front matter, then its first block (up to the first blank line), all that
 * can make its title heading. Only this is parsed to split a page: a repository's pages are read
 * whole by the content engine once they are the space's, and parsing each twice made a sync of a
 * thousand pages take seconds.
 */
function openingOf(content: string): string {
  const afterFrontMatter = skipBreaks(content, FRONT_MATTER.exec(content)?.[0].length ?? 0);
  const text = content.slice(afterFrontMatter).search(/\S/);
  if (text < 0) return content;
  const blank = /\n[ \t]*\r?\n/g;
  blank.lastIndex = afterFrontMatter + text;
  const end = blank.exec(content);
  return end ? content.slice(0, end.index) : content;
}

function splitPage(content: string): PageFile {
  const opening = openingOf(content);
  const pageParser = pageParserFor(opening);
  const tree = pageParser.runSync(pageParser.parse(opening));
  const [first, second] = tree.children;
  const frontMatter = tree.data?.frontMatter;
  const hasFrontMatter = first?.type === "yaml" && frontMatter !== undefined;
  const headEnd = hasFrontMatter ? skipBreaks(content, first.position?.end.offset ?? 0) : 0;
  const heading = hasFrontMatter ? second : first;
  const title = heading?.type === "heading" && heading.depth === 1 ? textOf(heading).trim() : "";
  const bodyStart =
    title && heading?.position?.end.offset !== undefined
      ? skipBreaks(content, heading.position.end.offset)
      : headEnd;
  return {
    head: content.slice(0, headEnd),
    ...(hasFrontMatter && { yaml: first.value }),
    frontMatter: frontMatter ?? {},
    titleLine: content.slice(headEnd, bodyStart),
    ...(title && { title }),
    markdown: content.slice(bodyStart),
  };
}

/** A path of the configuration, relative and normalized; undefined when it leaves its directory. */
function normalized(path: string): string | undefined {
  const clean = posix.normalize(`./${path}`).replace(/^\/+|\/+$/g, "");
  if (clean === "..") return undefined;
  if (clean.startsWith("../")) return undefined;
  return clean === "." ? "" : clean;
}

function joined(...parts: string[]): string {
  return parts.filter(Boolean).join("/");
}

type ConfigOutcome = { config: RepoConfig; redirects: Record<string, string> } | { invalid: string };

function parseConfig(text: string | undefined): ConfigOutcome {
  if (text === undefined) return { config: DEFAULT_CONFIG, redirects: {} };
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    return { invalid: `${CONFIG_FILE} is not valid YAML: ${(error as Error).message}` };
  }
  if (data === null || data === undefined) return { config: DEFAULT_CONFIG, redirects: {} };
  if (!isMapping(data)) return { invalid: `${CONFIG_FILE} must be a mapping (root, structure, redirects).` };
  const structure = isMapping(data.structure) ? data.structure : {};
  const path = (value: unknown, fallback: string) =>
    typeof value === "string" ? normalized(value) : fallback;
  const root = path(data.root, DEFAULT_CONFIG.root);
  const readme = path(structure.readme, DEFAULT_CONFIG.readme);
  const summary = path(structure.summary, DEFAULT_CONFIG.summary);
  if (root === undefined || !readme || !summary)
    return { invalid: `${CONFIG_FILE} names a path outside the repository's content.` };
  const redirects: Record<string, string> = {};
  if (isMapping(data.redirects))
    for (const [from, to] of Object.entries(data.redirects)) if (typeof to === "string") redirects[from] = to;
  return { config: { root, readme, summary }, redirects };
}

/** The name a page without a title heading or summary entry is known by: its file's, or its folder's. */
function nameOf(path: string): string {
  const stem = posix.basename(path, ".md");
  const folder = posix.basename(posix.dirname(path));
  return stem.toLowerCase() === "readme" && folder !== "." ? folder : stem;
}

/** What the reader knows of the content: its files (relative to the root) and their parsed pages. */
class Content {
  readonly parsed = new Map<string, PageFile>();
  readonly files: ReadonlyMap<string, string>;
  readonly config: RepoConfig;

  constructor(files: ReadonlyMap<string, string>, config: RepoConfig) {
    this.files = files;
    this.config = config;
  }

  /** The page of file `path`, titled by its heading, else by `fallback`, else by its name. */
  document(path: string, fallback: string, children: RepoPage[]): RepoDocument {
    const file = splitPage(this.files.get(path) ?? "");
    const title = file.title ?? (fallback || nameOf(path));
    this.parsed.set(path, { ...file, title });
    const isRootReadme = path === this.config.readme;
    return {
      kind: "document",
      path,
      slug: isRootReadme ? slugify(title) || "readme" : slugify(nameOf(path)) || "page",
      title,
      ...file.frontMatter,
      markdown: file.markdown,
      children,
    };
  }
}

function contentOf(files: Record<string, string>, base: string): Map<string, string> {
  const content = new Map<string, string>();
  const prefix = base ? `${base}/` : "";
  for (const [path, text] of Object.entries(files))
    if (path.startsWith(prefix)) content.set(path.slice(prefix.length), text);
  return content;
}

function isExternal(href: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith("//");
}

function decoded(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}

/** The tree SUMMARY.md gives: its `##` headings as groups, its lists' links as pages, nested as written. */
function pagesOfSummary(content: Content, summary: string): RepoPage[] {
  const directory = posix.dirname(content.config.summary);
  const fileOf = (url: string) =>
    normalized(joined(directory === "." ? "" : directory, decoded(url.split("#")[0] ?? "")));
  const linkOf = (item: ListItem) => {
    const paragraph = item.children.find((child) => child.type === "paragraph");
    const link = paragraph?.children.find((child: PhrasingContent) => child.type === "link");
    return link?.type === "link" ? link : undefined;
  };
  const root = summaryParser.parse(summary);
  // The files entries list without an anchor: an entry to an anchor of one of them is a link to it, as
  // GitBook reads it (`[Buttons](inline.md#buttons)` beside `[Inline](inline.md)`), not a copy of the page.
  const listed = new Set<string>();
  visit(root, "listItem", (item: ListItem) => {
    const link = linkOf(item);
    if (link && !isExternal(link.url) && !link.url.includes("#")) {
      const file = fileOf(link.url);
      if (file) listed.add(file);
    }
  });
  const itemsOf = (list: List): RepoPage[] =>
    list.children.flatMap((item) => {
      const nested = item.children.flatMap((child) => (child.type === "list" ? itemsOf(child) : []));
      const link = linkOf(item);
      // An entry that links nowhere is no page; what is nested in it is.
      if (!link) return nested;
      const title = textOf(link).trim();
      if (isExternal(link.url)) return [{ kind: "link", title, href: link.url }, ...nested];
      const file = fileOf(link.url);
      if (file && link.url.includes("#") && listed.has(file))
        return [{ kind: "link", title, href: link.url }, ...nested];
      return file ? [content.document(file, title, nested)] : nested;
    });
  const pages: RepoPage[] = [];
  let target = pages;
  for (const node of root.children as RootContent[]) {
    if (node.type === "heading" && node.depth === 2) {
      const start = node.children[0]?.position?.start.offset;
      const end = node.children.at(-1)?.position?.end.offset;
      const group: RepoGroup = {
        kind: "group",
        // GitBook's anchor of the heading is no part of its title (nor of the slug made from it).
        title: textOf(node, { includeHtml: false }).trim(),
        ...(start !== undefined && end !== undefined && { heading: summary.slice(start, end) }),
        children: [],
      };
      pages.push(group);
      target = group.children;
    } else if (node.type === "list") target.push(...itemsOf(node));
  }
  return pages;
}

/**
 * The tree the folders give, without SUMMARY.md: a folder's README.md is its page, the folder's other
 * files and folders its children (a folder without one lends them to its parent), by name.
 */
function pagesOfFolders(content: Content): RepoPage[] {
  const { readme, summary } = content.config;
  const entries = new Map<string, Set<string>>();
  for (const path of content.files.keys()) {
    if (!path.endsWith(".md") || path === summary || path === readme) continue;
    const segments = path.split("/");
    if (segments.some((segment) => segment.startsWith("."))) continue;
    for (let depth = 0; depth < segments.length; depth++) {
      const folder = segments.slice(0, depth).join("/");
      const entry = segments.slice(0, depth + 1).join("/");
      if (!entries.has(folder)) entries.set(folder, new Set());
      entries.get(folder)?.add(entry);
    }
  }
  const folder = (path: string): RepoPage[] =>
    [...(entries.get(path) ?? [])]
      .filter((entry) => posix.basename(entry) !== "README.md")
      .sort()
      .flatMap((entry) => {
        if (entry.endsWith(".md") && content.files.has(entry)) return [content.document(entry, "", [])];
        const children = folder(entry);
        const page = joined(entry, "README.md");
        return content.files.has(page) ? [content.document(page, "", children)] : children;
      });
  return folder("");
}

function readContent(files: Record<string, string>, base: string, config: RepoConfig) {
  const content = new Content(contentOf(files, base), config);
  const summary = content.files.get(config.summary);
  let pages = summary === undefined ? pagesOfFolders(content) : pagesOfSummary(content, summary);
  // The first page is the readme, whether the summary lists it or not.
  if (content.files.has(config.readme) && !content.parsed.has(config.readme))
    pages = [content.document(config.readme, "", []), ...pages];
  const assets = [...content.files.keys()].filter((path) => path.startsWith(ASSETS)).sort();
  return { pages, assets, parsed: content.parsed };
}

/** `.gitbook.yaml` alone: where the content is, and the redirects, for a write of the repository. */
export function readConfig({
  files,
  projectDirectory = "",
}: ReadInput): Pick<Repository, "config" | "redirects"> | { invalid: string } {
  return parseConfig(files[joined(normalized(projectDirectory) ?? "", CONFIG_FILE)]);
}

export function readRepository({ files, projectDirectory = "" }: ReadInput): RepositoryOutcome {
  const project = normalized(projectDirectory) ?? "";
  const configured = parseConfig(files[joined(project, CONFIG_FILE)]);
  if ("invalid" in configured) return configured;
  const { config, redirects } = configured;
  const { pages, assets } = readContent(files, joined(project, config.root), config);
  return { config, redirects, pages, assets };
}

/** What SUMMARY.md says of a tree: compared to tell whether the tree changed. */
function outline(pages: readonly RepoPage[]): unknown[] {
  return pages.map((page) => {
    if (page.kind === "link") return ["link", page.title, page.href];
    if (page.kind === "group") return ["group", page.title, outline(page.children)];
    return ["document", page.title, page.path, outline(page.children)];
  });
}

/** The folder a page's children are placed in: its own folder for a README, else one named by its file. */
function childFolder(path: string): string {
  const folder = posix.dirname(path) === "." ? "" : posix.dirname(path);
  return posix.basename(path) === "README.md" ? folder : joined(folder, posix.basename(path, ".md"));
}

/** Every page with a file: those new to the repository placed as GitBook does, clear of `taken`. */
function place(pages: readonly RepoPage[], folder: string, taken: Set<string>): RepoPage[] {
  return pages.map((page): RepoPage => {
    if (page.kind === "link") return page;
    if (page.kind === "group")
      return { ...page, children: place(page.children, joined(folder, slugify(page.title)), taken) };
    let path = page.path;
    if (!path) {
      const name = page.slug || slugify(page.title) || "page";
      const at = (suffix: string) =>
        page.children.length > 0
          ? joined(folder, `${name}${suffix}`, "README.md")
          : joined(folder, `${name}${suffix}.md`);
      let n = 1;
      while (taken.has(at(n === 1 ? "" : `-${n}`))) n++;
      path = at(n === 1 ? "" : `-${n}`);
      taken.add(path);
    }
    return { ...page, path, children: place(page.children, childFolder(path), taken) };
  });
}

function pathsOf(pages: readonly RepoPage[], paths: string[] = []): string[] {
  for (const page of pages) {
    if (page.kind === "document" && page.path) paths.push(page.path);
    if (page.kind !== "link") pathsOf(page.children, paths);
  }
  return paths;
}

/** The keys of a page's front matter that Quire reads, and writes back. */
const FRONT_MATTER_KEYS = [
  "description",
  "icon",
  "layout",
  "hidden",
  "noIndex",
  "noRobotsIndex",
  "canonical",
  "alternates",
] as const;

function frontMatterOf(page: RepoDocument): FrontMatter {
  return Object.fromEntries(
    FRONT_MATTER_KEYS.flatMap((key) => (page[key] === undefined ? [] : [[key, page[key]]])),
  ) as FrontMatter;
}

/** A meta link as front matter writes it (see `metaLinkTarget` in the content engine). */
const metaLinkYaml = (target: MetaLinkTarget) =>
  target.kind === "url" ? target.url : { page: target.page, ...(target.space && { space: target.space }) };

/** The values of the front matter's keys as YAML holds them. */
function yamlOf(frontMatter: FrontMatter): Record<string, unknown> {
  const { canonical, alternates, ...rest } = frontMatter;
  return {
    ...rest,
    ...(canonical && { canonical: metaLinkYaml(canonical) }),
    ...(alternates && { alternates: alternates.map(metaLinkYaml) }),
  };
}

/** The front matter written: the previous one edited in place (its other keys and comments kept), or new. */
function writeFrontMatter(frontMatter: FrontMatter, previousYaml?: string): string {
  const values = yamlOf(frontMatter);
  if (previousYaml === undefined) {
    if (Object.keys(values).length === 0) return "";
    return `---\n${stringifyYaml(values, { lineWidth: 0 })}---\n\n`;
  }
  const document = parseDocument(previousYaml);
  for (const key of FRONT_MATTER_KEYS) {
    const value = values[key];
    if (value === undefined) document.delete(key);
    else document.set(key, value);
  }
  const yaml = document.toString({ lineWidth: 0 });
  return yaml.trim() === "{}" || yaml.trim() === "" ? "" : `---\n${yaml}---\n\n`;
}

function titleHeading(title: string, markdown: string): string {
  const root: Root = {
    type: "root",
    children: [{ type: "heading", depth: 1, children: [{ type: "text", value: title }] }],
  };
  return `${writer.stringify(root)}${markdown ? "\n" : ""}`;
}

/** A page's file: the parts it did not change kept as the previous file wrote them. */
function pageFile(page: RepoDocument, previous?: PageFile): string {
  const frontMatter = frontMatterOf(page);
  const head =
    previous && isDeepStrictEqual(previous.frontMatter, frontMatter)
      ? previous.head
      : page.frontMatterSource
        ? `${page.frontMatterSource.replace(/\r?\n$/, "")}\n\n`
        : writeFrontMatter(frontMatter, previous?.yaml);
  // A title the file did not write (the summary's, the file's name) stays unwritten while it holds.
  const titleLine =
    previous?.title === page.title ? previous.titleLine : titleHeading(page.title, page.markdown);
  return head + titleLine + page.markdown;
}

/** The headings SUMMARY.md wrote for its groups, by title: written back as they were. */
function headingsOf(pages: readonly RepoPage[]): Map<string, string> {
  const headings = new Map<string, string>();
  for (const page of pages)
    if (page.kind === "group" && page.heading !== undefined && !headings.has(page.title))
      headings.set(page.title, page.heading);
  return headings;
}

function summaryTree(
  pages: readonly RepoPage[],
  summary: string,
  headings: ReadonlyMap<string, string> = new Map(),
): Root {
  const directory = posix.dirname(summary) === "." ? "" : posix.dirname(summary);
  const list = (items: readonly RepoPage[]): List => ({
    type: "list",
    ordered: false,
    spread: false,
    children: items.flatMap((page) => {
      if (page.kind === "group") return [];
      const url = page.kind === "link" ? page.href : posix.relative(directory || ".", page.path);
      const nested = page.kind === "document" && page.children.length > 0 ? [list(page.children)] : [];
      return [
        {
          type: "listItem",
          spread: false,
          children: [
            {
              type: "paragraph",
              children: [{ type: "link", url, children: [{ type: "text", value: page.title }] }],
            },
            ...nested,
          ],
        },
      ];
    }),
  });
  const children: RootContent[] = [
    { type: "heading", depth: 1, children: [{ type: "text", value: "Table of contents" }] },
  ];
  let run: RepoPage[] = [];
  const flush = () => {
    if (run.length > 0) children.push(list(run));
    run = [];
  };
  for (const page of pages) {
    if (page.kind !== "group") {
      run.push(page);
      continue;
    }
    flush();
    const heading = headings.get(page.title);
    // A heading as it was written (its anchor's HTML with it) goes out as it came in.
    children.push({
      type: "heading",
      depth: 2,
      children: [
        heading === undefined ? { type: "text", value: page.title } : { type: "html", value: heading },
      ],
    });
    run = page.children;
    flush();
  }
  flush();
  return { type: "root", children };
}

/** `.gitbook.yaml`: the previous one edited in place when there was one, else GitBook's layout of it. */
function configFile(config: RepoConfig, redirects: Record<string, string>, previous?: string): string {
  const root = config.root ? `./${config.root}/` : "./";
  const written = previous === undefined ? undefined : parseConfig(previous);
  const before = written && "config" in written ? written : { config: undefined, redirects: undefined };
  // One that is not GitBook's is replaced whole.
  const parsed = before.config ? parseDocument(previous ?? "") : undefined;
  const document: Document = parsed && isMap(parsed.contents) ? parsed : new Document({});
  if (before.config?.root !== config.root) document.set("root", root);
  if (before.config?.readme !== config.readme) document.setIn(["structure", "readme"], config.readme);
  if (before.config?.summary !== config.summary) document.setIn(["structure", "summary"], config.summary);
  if (!isDeepStrictEqual(before.redirects, redirects)) {
    // Entry by entry, so that the others keep their comments.
    if (Object.keys(redirects).length === 0) document.delete("redirects");
    else if (!isMap(document.get("redirects"))) document.set("redirects", redirects);
    else {
      for (const from of Object.keys(before.redirects ?? {}))
        if (redirects[from] === undefined) document.deleteIn(["redirects", from]);
      for (const [from, to] of Object.entries(redirects))
        if (before.redirects?.[from] !== to) document.setIn(["redirects", from], to);
    }
  }
  return document.toString({ lineWidth: 0 });
}

/** The repository's files as `writeRepository` gives them, and the file each page with an `id` went to. */
export interface WrittenRepository {
  files: Record<string, string>;
  paths: Record<string, string>;
}

export function writeRepository(input: WriteInput): Record<string, string> {
  return writeRepositoryPlaced(input).files;
}

export function writeRepositoryPlaced({
  pages,
  config,
  redirects,
  previous = {},
  projectDirectory = "",
}: WriteInput): WrittenRepository {
  const project = normalized(projectDirectory) ?? "";
  const base = joined(project, config.root);
  const configPath = joined(project, CONFIG_FILE);
  const summaryPath = joined(base, config.summary);
  // The previous content read as the configuration now written places it.
  const before = readContent(previous, base, config);
  const owned = new Set([
    configPath,
    summaryPath,
    ...[...before.parsed.keys()].map((path) => joined(base, path)),
  ]);

  const files: Record<string, string> = {};
  // What is no page of the space (assets, code, other sections) stays as it was.
  for (const [path, text] of Object.entries(previous)) if (!owned.has(path)) files[path] = text;
  const taken = new Set([...pathsOf(pages), ...contentOf(files, base).keys()]);
  // A new first page is the readme, when no page is.
  const [first, ...rest] = pages;
  const tree =
    first?.kind === "document" && !first.path && !taken.has(config.readme)
      ? [{ ...first, path: config.readme }, ...rest]
      : pages;
  const placed = place(tree, "", taken);

  const paths: Record<string, string> = {};
  const write = (tree: readonly RepoPage[]) => {
    for (const page of tree) {
      if (page.kind === "document") {
        if (page.id !== undefined) paths[page.id] = page.path;
        const path = joined(base, page.path);
        const text = pageFile(page, before.parsed.get(page.path));
        // A summary's entry whose file is missing stays so while its page is empty.
        if (text !== "" || previous[path] !== undefined) files[path] = text;
      }
      if (page.kind !== "link") write(page.children);
    }
  };
  write(placed);

  const summary = previous[summaryPath];
  if (!isDeepStrictEqual(outline(placed), outline(before.pages)))
    files[summaryPath] = writer.stringify(summaryTree(placed, config.summary, headingsOf(before.pages)));
  else if (summary !== undefined) files[summaryPath] = summary;

  const previousConfig = previous[configPath];
  const read = parseConfig(previousConfig);
  const unchanged = "config" in read && isDeepStrictEqual(read, { config, redirects });
  if (unchanged && previousConfig !== undefined) files[configPath] = previousConfig;
  else if (!unchanged) files[configPath] = configFile(config, redirects, previousConfig);
  return { files, paths };
}
