import { afterAll, describe, expect, it } from "vitest";
import { contentEngine } from "../content/engine/index.js";
import { ApiError } from "../http/errors.js";
import * as format from "./format.js";
import {
  type RepoDocument,
  type RepoPage,
  type Repository,
  readRepository,
  writeRepository,
} from "./repository.js";

afterAll(() => contentEngine().close());

/** A repository laid out as GitBook's Git Sync writes one, its content under `docs/`. */
function gitbookRepository(): Record<string, string> {
  return {
    "README.md": "# Acme\n\nThe code of Acme; its documentation is under docs/.\n",
    ".gitbook.yaml": [
      "# Where GitBook finds the documentation",
      "root: ./docs/",
      "",
      "structure:",
      "  readme: README.md",
      "  summary: SUMMARY.md",
      "",
      "redirects:",
      "  old/setup: getting-started/installation/README.md",
      "",
    ].join("\n"),
    "docs/SUMMARY.md": [
      "# Table of contents",
      "",
      "* [Welcome](README.md)",
      "",
      "## Getting started",
      "",
      "* [Quickstart](getting-started/quickstart.md)",
      "* [Installation](getting-started/installation/README.md)",
      "  * [On Linux](getting-started/installation/linux.md)",
      "  * [On macOS](getting-started/installation/macos.md)",
      "",
      "## Reference",
      "",
      "* [API](reference/api.md)",
      "* [Changelog](https://example.com/changelog)",
      "",
    ].join("\n"),
    "docs/README.md": [
      "---",
      "description: Everything about Acme.",
      "icon: house",
      "layout:",
      "  title:",
      "    visible: true",
      "---",
      "",
      "# Welcome",
      "",
      "Acme answers questions.",
      "",
      '{% hint style="info" %}',
      "Start with the **Quickstart**.",
      "{% endhint %}",
      "",
    ].join("\n"),
    "docs/getting-started/quickstart.md": [
      "# Quickstart",
      "",
      "1. Install.",
      "2. Run `acme`.",
      "",
      "![The flow](../.gitbook/assets/diagram.png)",
      "",
    ].join("\n"),
    "docs/getting-started/installation/README.md": [
      "# Installation",
      "",
      "Pick your system.",
      "",
      '{% content-ref url="linux.md" %}',
      "[linux.md](linux.md)",
      "{% endcontent-ref %}",
      "",
    ].join("\n"),
    "docs/getting-started/installation/linux.md": [
      "---",
      "hidden: true",
      "---",
      "",
      "# Linux",
      "",
      "```bash",
      "apt install acme",
      "```",
      "",
    ].join("\n"),
    // No title heading: the summary's link names it.
    "docs/getting-started/installation/macos.md": "Run `brew install acme`.\n",
    "docs/reference/api.md": [
      "---",
      "description: The HTTP API.",
      "coverY: 0",
      "---",
      "",
      "# API",
      "",
      "{% tabs %}",
      '{% tab title="curl" %}',
      "```sh",
      "curl https://acme.test/v1",
      "```",
      "{% endtab %}",
      "{% endtabs %}",
      "",
    ].join("\n"),
    "docs/.gitbook/assets/diagram.png": "PNG placeholder bytes",
  };
}

function read(files: Record<string, string>, projectDirectory?: string): Repository {
  const outcome = readRepository({ files, ...(projectDirectory !== undefined && { projectDirectory }) });
  if ("invalid" in outcome) throw new Error(outcome.invalid);
  return outcome;
}

/** The tree's shape: kinds, titles and paths, nested. */
function shape(pages: readonly RepoPage[]): unknown[] {
  return pages.map((page) => {
    if (page.kind === "link") return { link: page.title, href: page.href };
    if (page.kind === "group") return { group: page.title, children: shape(page.children) };
    return {
      page: page.title,
      path: page.path,
      slug: page.slug,
      ...(page.children.length > 0 && { children: shape(page.children) }),
    };
  });
}

function pageTitled(pages: readonly RepoPage[], title: string): RepoDocument | undefined {
  for (const page of pages) {
    if (page.kind === "document" && page.title === title) return page;
    const found = page.kind === "link" ? undefined : pageTitled(page.children, title);
    if (found) return found;
  }
  return undefined;
}

function findPage(pages: readonly RepoPage[], title: string): RepoDocument {
  const page = pageTitled(pages, title);
  if (!page) throw new Error(`No page titled ${title}`);
  return page;
}

/** The paths whose files differ between two repositories: changed, added or removed. */
function changed(before: Record<string, string>, after: Record<string, string>): string[] {
  const paths = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...paths].filter((path) => before[path] !== after[path]).sort();
}

/** The repository written back over `previous`, with the tree edited by `edit` (given a copy). */
function rewrite(previous: Record<string, string>, edit: (repository: Repository) => void) {
  const repository = structuredClone(read(previous));
  edit(repository);
  return writeRepository({ ...repository, previous });
}

describe("reading GitBook's repository format", () => {
  it("reads the configuration, the summary's tree, the pages and the assets", () => {
    const repository = read(gitbookRepository());
    expect(repository.config).toEqual({ root: "docs", readme: "README.md", summary: "SUMMARY.md" });
    expect(repository.redirects).toEqual({ "old/setup": "getting-started/installation/README.md" });
    expect(repository.assets).toEqual([".gitbook/assets/diagram.png"]);
    expect(shape(repository.pages)).toEqual([
      { page: "Welcome", path: "README.md", slug: "welcome" },
      {
        group: "Getting started",
        children: [
          { page: "Quickstart", path: "getting-started/quickstart.md", slug: "quickstart" },
          {
            page: "Installation",
            path: "getting-started/installation/README.md",
            slug: "installation",
            children: [
              { page: "Linux", path: "getting-started/installation/linux.md", slug: "linux" },
              { page: "On macOS", path: "getting-started/installation/macos.md", slug: "macos" },
            ],
          },
        ],
      },
      {
        group: "Reference",
        children: [
          { page: "API", path: "reference/api.md", slug: "api" },
          { link: "Changelog", href: "https://example.com/changelog" },
        ],
      },
    ]);
  });

  it("reads front matter into the page and keeps the body, GitBook's blocks as written", () => {
    const { pages } = read(gitbookRepository());
    const welcome = findPage(pages, "Welcome");
    expect(welcome).toMatchObject({
      description: "Everything about Acme.",
      icon: "house",
      layout: { title: { visible: true } },
    });
    expect(welcome.hidden).toBeUndefined();
    expect(welcome.markdown).toBe(
      'Acme answers questions.\n\n{% hint style="info" %}\nStart with the **Quickstart**.\n{% endhint %}\n',
    );
    expect(findPage(pages, "Linux").hidden).toBe(true);
    expect(findPage(pages, "Linux").markdown).toBe("```bash\napt install acme\n```\n");
    expect(findPage(pages, "On macOS").markdown).toBe("Run `brew install acme`.\n");
    expect(findPage(pages, "API").description).toBe("The HTTP API.");
  });

  it("refuses a .gitbook.yaml that is not GitBook's", () => {
    expect(readRepository({ files: { ".gitbook.yaml": "root: [unclosed" } })).toEqual({
      invalid: expect.stringContaining(".gitbook.yaml is not valid YAML"),
    });
    expect(readRepository({ files: { ".gitbook.yaml": "- a list" } })).toEqual({
      invalid: ".gitbook.yaml must be a mapping (root, structure, redirects).",
    });
    expect(readRepository({ files: { ".gitbook.yaml": "root: ../elsewhere" } })).toEqual({
      invalid: ".gitbook.yaml names a path outside the repository's content.",
    });
  });

  it("reads the section of a monorepo from its project directory", () => {
    const files = Object.fromEntries(
      Object.entries(gitbookRepository()).map(([path, text]) => [`packages/acme/${path}`, text]),
    );
    const repository = read(files, "packages/acme");
    expect(shape(repository.pages)).toEqual(shape(read(gitbookRepository()).pages));
    expect(writeRepository({ ...repository, previous: files, projectDirectory: "packages/acme" })).toEqual(
      files,
    );
  });
});

describe("a repository without SUMMARY.md", () => {
  const files = {
    "README.md": "Welcome aboard.\n",
    "guide.md": "# The guide\n\nRead on.\n",
    "setup/README.md": "# Setting up\n\nSteps follow.\n",
    "setup/advanced.md": "Only for experts.\n",
    "setup/basics.md": "# Basics\n\nFirst steps.\n",
    "notes/faq.md": "# FAQ\n\nQuestions.\n",
    ".gitbook/assets/logo.svg": "<svg/>",
    ".github/workflows/ci.md": "# Not a page\n",
  };

  it("builds the tree from folders and files, titles from the first heading or the file's name", () => {
    const repository = read(files);
    expect(repository.config).toEqual({ root: "", readme: "README.md", summary: "SUMMARY.md" });
    expect(repository.assets).toEqual([".gitbook/assets/logo.svg"]);
    expect(shape(repository.pages)).toEqual([
      { page: "README", path: "README.md", slug: "readme" },
      { page: "The guide", path: "guide.md", slug: "guide" },
      // A folder without README.md lends its pages to its parent.
      { page: "FAQ", path: "notes/faq.md", slug: "faq" },
      {
        page: "Setting up",
        path: "setup/README.md",
        slug: "setup",
        children: [
          { page: "advanced", path: "setup/advanced.md", slug: "advanced" },
          { page: "Basics", path: "setup/basics.md", slug: "basics" },
        ],
      },
    ]);
    expect(findPage(repository.pages, "README").markdown).toBe("Welcome aboard.\n");
  });

  it("writes it back unchanged, adding no SUMMARY.md while the tree holds", () => {
    expect(writeRepository({ ...read(files), previous: files })).toEqual(files);
  });

  it("writes a SUMMARY.md once the tree changes", () => {
    const after = rewrite(files, (repository) => {
      repository.pages.reverse();
    });
    expect(changed(files, after)).toEqual(["SUMMARY.md"]);
    expect(after["SUMMARY.md"]).toBe(
      [
        "# Table of contents",
        "",
        "* [Setting up](setup/README.md)",
        "  * [advanced](setup/advanced.md)",
        "  * [Basics](setup/basics.md)",
        "* [FAQ](notes/faq.md)",
        "* [The guide](guide.md)",
        "* [README](README.md)",
        "",
      ].join("\n"),
    );
    // What it wrote reads as the tree it was given.
    expect(shape(read(after).pages)).toEqual(shape([...read(files).pages].reverse()));
  });
});

describe("writing GitBook's repository format", () => {
  it("writes an unchanged repository back byte for byte", () => {
    const files = gitbookRepository();
    expect(writeRepository({ ...read(files), previous: files })).toEqual(files);
    // A summary's entry without its file included.
    files["docs/SUMMARY.md"] += "* [Roadmap](reference/roadmap.md)\n";
    expect(findPage(read(files).pages, "Roadmap")).toMatchObject({
      path: "reference/roadmap.md",
      markdown: "",
    });
    expect(writeRepository({ ...read(files), previous: files })).toEqual(files);
  });

  it("changes only the file of a page whose body was edited", () => {
    const files = gitbookRepository();
    const after = rewrite(files, ({ pages }) => {
      findPage(pages, "Quickstart").markdown = "1. Install.\n2. Run `acme --help`.\n";
      findPage(pages, "On macOS").markdown = "Run `brew install acme-cli`.\n";
    });
    expect(changed(files, after)).toEqual([
      "docs/getting-started/installation/macos.md",
      "docs/getting-started/quickstart.md",
    ]);
    expect(after["docs/getting-started/quickstart.md"]).toBe(
      "# Quickstart\n\n1. Install.\n2. Run `acme --help`.\n",
    );
    // Its title is the summary's: the file still writes none.
    expect(after["docs/getting-started/installation/macos.md"]).toBe("Run `brew install acme-cli`.\n");
  });

  it("edits front matter in place, keeping the keys GitBook wrote that Quire does not read", () => {
    const files = gitbookRepository();
    const after = rewrite(files, ({ pages }) => {
      const api = findPage(pages, "API");
      api.description = "Every endpoint.";
      api.hidden = true;
    });
    expect(changed(files, after)).toEqual(["docs/reference/api.md"]);
    expect(after["docs/reference/api.md"]).toBe(
      (files["docs/reference/api.md"] as string).replace(
        "description: The HTTP API.\ncoverY: 0\n",
        "description: Every endpoint.\ncoverY: 0\nhidden: true\n",
      ),
    );
  });

  it("writes a page's meta links into its front matter, and reads them back", () => {
    const files = gitbookRepository();
    const after = rewrite(files, ({ pages }) => {
      const api = findPage(pages, "API");
      api.canonical = { kind: "url", url: "https://docs.example.com/api" };
      api.alternates = [
        { kind: "page", page: "p1", space: "s2" },
        { kind: "url", url: "https://fr.example.com/api" },
      ];
    });
    expect(after["docs/reference/api.md"]).toContain(
      "canonical: https://docs.example.com/api\nalternates:\n  - page: p1\n    space: s2\n  - https://fr.example.com/api\n",
    );
    expect(findPage(read(after).pages, "API")).toMatchObject({
      canonical: { kind: "url", url: "https://docs.example.com/api" },
      alternates: [
        { kind: "page", page: "p1", space: "s2" },
        { kind: "url", url: "https://fr.example.com/api" },
      ],
    });
  });

  it("renames a page in its heading and in the summary", () => {
    const files = gitbookRepository();
    const after = rewrite(files, ({ pages }) => {
      findPage(pages, "Quickstart").title = "Quick start";
    });
    expect(changed(files, after)).toEqual(["docs/SUMMARY.md", "docs/getting-started/quickstart.md"]);
    expect(after["docs/getting-started/quickstart.md"]?.startsWith("# Quick start\n\n1. Install.")).toBe(
      true,
    );
    expect(after["docs/SUMMARY.md"]).toContain("* [Quick start](getting-started/quickstart.md)\n");
  });

  it("moves a page in SUMMARY.md only: its file stays where it is", () => {
    const files = gitbookRepository();
    const after = rewrite(files, ({ pages }) => {
      const [, started] = pages;
      if (started?.kind !== "group") throw new Error("no group");
      const quickstart = started.children.shift() as RepoPage;
      findPage(pages, "Installation").children.push(quickstart);
    });
    expect(changed(files, after)).toEqual(["docs/SUMMARY.md"]);
    expect(after["docs/SUMMARY.md"]).toBe(
      [
        "# Table of contents",
        "",
        "* [Welcome](README.md)",
        "",
        "## Getting started",
        "",
        "* [Installation](getting-started/installation/README.md)",
        // The link's text is the page's title: the heading of its file.
        "  * [Linux](getting-started/installation/linux.md)",
        "  * [On macOS](getting-started/installation/macos.md)",
        "  * [Quickstart](getting-started/quickstart.md)",
        "",
        "## Reference",
        "",
        "* [API](reference/api.md)",
        "* [Changelog](https://example.com/changelog)",
        "",
      ].join("\n"),
    );
    expect(findPage(read(after).pages, "Installation").children.map((page) => page.title)).toEqual([
      "Linux",
      "On macOS",
      "Quickstart",
    ]);
  });

  it("places new pages as GitBook does: slug.md, a folder's README.md when it has children", () => {
    const files = gitbookRepository();
    const page = (
      title: string,
      slug: string,
      markdown: string,
      children: RepoPage[] = [],
    ): RepoDocument => ({
      kind: "document",
      path: "",
      slug,
      title,
      markdown,
      children,
    });
    const after = rewrite(files, ({ pages }) => {
      findPage(pages, "API").children.push(page("Errors", "errors", "Codes.\n"));
      const [, , reference] = pages;
      if (reference?.kind !== "group") throw new Error("no group");
      reference.children.push(page("Webhooks", "webhooks", "", [page("Events", "events", "Each event.\n")]));
      // A slug a file already has gets a suffix.
      pages.splice(1, 0, page("Quickstart again", "quickstart", "Again.\n"));
      pages.push({
        kind: "group",
        title: "Getting started",
        children: [page("Quickstart", "quickstart", "Once more.\n")],
      });
    });
    expect(changed(files, after)).toEqual([
      "docs/SUMMARY.md",
      "docs/getting-started/quickstart-2.md",
      "docs/quickstart.md",
      "docs/reference/api/errors.md",
      "docs/reference/webhooks/README.md",
      "docs/reference/webhooks/events.md",
    ]);
    expect(after["docs/reference/api/errors.md"]).toBe("# Errors\n\nCodes.\n");
    expect(after["docs/reference/webhooks/README.md"]).toBe("# Webhooks\n");
    expect(after["docs/reference/webhooks/events.md"]).toBe("# Events\n\nEach event.\n");
    expect(shape(read(after).pages).at(-1)).toEqual({
      group: "Getting started",
      children: [{ page: "Quickstart", path: "getting-started/quickstart-2.md", slug: "quickstart-2" }],
    });
  });

  it("removes the file of a page taken out of the tree", () => {
    const files = gitbookRepository();
    const after = rewrite(files, ({ pages }) => {
      const installation = findPage(pages, "Installation");
      installation.children = installation.children.filter((child) => child.title !== "Linux");
    });
    expect(changed(files, after)).toEqual(["docs/SUMMARY.md", "docs/getting-started/installation/linux.md"]);
    expect(after["docs/getting-started/installation/linux.md"]).toBeUndefined();
    expect(after["docs/SUMMARY.md"]).not.toContain("linux.md");
  });

  it("edits .gitbook.yaml in place when the redirects change, its comments kept", () => {
    const files = gitbookRepository();
    const after = rewrite(files, ({ redirects }) => {
      redirects["old/api"] = "reference/api.md";
    });
    expect(changed(files, after)).toEqual([".gitbook.yaml"]);
    expect(after[".gitbook.yaml"]).toBe(`${files[".gitbook.yaml"]}  old/api: reference/api.md\n`);
  });

  it("writes a new repository in GitBook's layout, which reads back as the tree it was given", () => {
    const { pages, config, redirects } = read(gitbookRepository());
    const fresh = (tree: readonly RepoPage[]): RepoPage[] =>
      tree.map((page) =>
        page.kind === "link"
          ? page
          : { ...page, ...(page.kind === "document" && { path: "" }), children: fresh(page.children) },
      );
    const files = writeRepository({ pages: fresh(pages), config, redirects });
    expect(Object.keys(files).sort()).toEqual(
      [
        ".gitbook.yaml",
        "docs/SUMMARY.md",
        "docs/getting-started/installation/README.md",
        "docs/getting-started/installation/linux.md",
        "docs/getting-started/installation/macos.md",
        "docs/getting-started/quickstart.md",
        "docs/README.md",
        "docs/reference/api.md",
      ].sort(),
    );
    expect(files[".gitbook.yaml"]).toBe(
      "root: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old/setup: getting-started/installation/README.md\n",
    );
    expect(files["docs/getting-started/installation/linux.md"]).toBe(
      "---\nhidden: true\n---\n\n# Linux\n\n```bash\napt install acme\n```\n",
    );
    const again = read(files);
    const strip = (tree: readonly RepoPage[]): unknown =>
      JSON.stringify(shape(tree)).replaceAll(/"path":"[^"]*",?/g, "");
    expect(strip(again.pages)).toBe(strip(pages));
    expect(findPage(again.pages, "Welcome")).toMatchObject({
      description: "Everything about Acme.",
      icon: "house",
      layout: { title: { visible: true } },
      markdown: findPage(pages, "Welcome").markdown,
    });
  });
});

describe("SUMMARY.md as GitBook's documentation writes it", () => {
  const shapeOf = (pages: readonly RepoPage[]): unknown[] =>
    pages.map((page) =>
      page.kind === "link"
        ? ["link", page.title, page.href]
        : page.kind === "group"
          ? ["group", page.title, shapeOf(page.children)]
          : ["document", page.title, page.path, shapeOf(page.children)],
    );
  /** Entries to anchors of listed pages, and group headings with GitBook's anchor. */
  const files = (): Record<string, string> => ({
    "SUMMARY.md": [
      "# Table of contents",
      "",
      "* [Welcome](README.md)",
      "",
      '## Get Started <a href="#getting-started" id="getting-started"></a>',
      "",
      "* [Top](formatting/inline.md#top)",
      "* [Inline](formatting/inline.md)",
      "  * [Buttons](formatting/inline.md#buttons)",
      "",
      "## Reference",
      "",
      "* [API](api.md)",
      "",
    ].join("\n"),
    "README.md": "# Welcome\n\nHello.\n",
    "formatting/inline.md": "# Inline\n\n## Buttons\n\nPress it.\n",
    "api.md": "# API\n\nEndpoints.\n",
  });

  it("reads an entry to an anchor of a page listed elsewhere as a link, and a heading's title without its HTML", () => {
    const [, group] = read(files()).pages;
    expect(group).toMatchObject({
      kind: "group",
      title: "Get Started",
      heading: 'Get Started <a href="#getting-started" id="getting-started"></a>',
    });
    expect(shapeOf(read(files()).pages)).toEqual([
      ["document", "Welcome", "README.md", []],
      [
        "group",
        "Get Started",
        [
          ["link", "Top", "formatting/inline.md#top"],
          [
            "document",
            "Inline",
            "formatting/inline.md",
            [["link", "Buttons", "formatting/inline.md#buttons"]],
          ],
        ],
      ],
      ["group", "Reference", [["document", "API", "api.md", []]]],
    ]);
    // An entry to an anchor of a page listed nowhere else is that page.
    const alone = { ...files(), "SUMMARY.md": "* [Buttons](formatting/inline.md#buttons)\n" };
    expect(shapeOf(read(alone).pages)).toEqual([
      ["document", "Welcome", "README.md", []],
      ["document", "Inline", "formatting/inline.md", []],
    ]);
  });

  it("writes the anchor entries and the heading lines back as they were, also when the tree changed", () => {
    const before = files();
    expect(writeRepository({ ...read(before), previous: before })).toEqual(before);
    const after = rewrite(before, ({ pages }) => {
      findPage(pages, "API").title = "HTTP API";
    });
    expect(changed(before, after)).toEqual(["SUMMARY.md", "api.md"]);
    expect(after["SUMMARY.md"]).toBe(
      (before["SUMMARY.md"] as string).replace("* [API](api.md)", "* [HTTP API](api.md)"),
    );
  });

  it("writes a renamed group's heading anew, without the old anchor", () => {
    const after = rewrite(files(), ({ pages }) => {
      const group = pages[1];
      if (group?.kind === "group") group.title = "Start here";
    });
    expect(after["SUMMARY.md"]).toContain("\n## Start here\n");
    expect(after["SUMMARY.md"]).not.toContain("getting-started");
  });
});

describe("front matter of the space's pages", () => {
  it("is written as the page holds it, unknown keys and folded YAML kept, where the repository has no file yet", () => {
    const frontMatterSource =
      "---\nname: Inline\ndescription: >-\n  A long description,\n  folded.\ntags: [a, b]\nmetadata:\n  owner: docs\n---\n";
    const written = writeRepository({
      pages: [
        {
          kind: "document",
          path: "",
          slug: "inline",
          title: "Inline",
          description: "A long description, folded.",
          frontMatterSource,
          markdown: "Text.\n",
          children: [],
        },
      ],
      config: { root: "", readme: "README.md", summary: "SUMMARY.md" },
      redirects: {},
    });
    expect(written["README.md"]).toBe(`${frontMatterSource}\n# Inline\n\nText.\n`);
  });
});

describe("the format from the event loop", { timeout: 30_000 }, () => {
  it("reads and writes in the content engine's pool", async () => {
    const files = gitbookRepository();
    const repository = await format.readRepository({ files });
    expect(repository).toEqual(read(files));
    expect(await format.writeRepository({ ...repository, previous: files })).toEqual(files);
  });

  it("answers 422 for a repository it cannot read", async () => {
    const refusal = await format
      .readRepository({ files: { ".gitbook.yaml": "- a list" } })
      .catch((error) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 422,
      message: ".gitbook.yaml must be a mapping (root, structure, redirects).",
    });
  });
});
