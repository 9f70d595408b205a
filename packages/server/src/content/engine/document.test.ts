import type { JSONDocument } from "@quire/api-types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromDocument, toDocument } from "./document.js";

/** The Markdown of a document, which the tests expect to be valid. */
function markdownOf(document: unknown, previous?: string): string {
  const outcome = fromDocument({ document, ...(previous !== undefined && { previous }) });
  if ("invalid" in outcome) throw new Error(outcome.invalid);
  return outcome.markdown;
}

const withoutMeta = (nodes: unknown) =>
  JSON.parse(JSON.stringify(nodes, (key, value) => (key === "meta" ? undefined : value)));

const word = fc.constantFrom(
  "alpha",
  "Beta",
  "x_y",
  "a*b",
  "1.",
  "#tag",
  "<b>",
  "[x]",
  "`t`",
  "\\",
  "&amp;",
  "{% hint %}",
  "日本",
  "😀",
  "_",
  "**",
  "~",
  "|",
);
const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(" "));
const inline = fc.oneof(
  words,
  words.map((w) => `*${w.trim()}*`),
  words.map((w) => `**${w.trim()}**`),
  words.map((w) => `~~${w.trim()}~~`),
  fc.constantFrom(
    "`code`",
    "`a*b`",
    "[link](https://example.com/x)",
    "[page](/pages/p1#intro)",
    "![alt](/files/f1)",
  ),
  fc.constantFrom("**bold *both***", "line  \nbreak", "soft\nline"),
  fc.constantFrom(
    "<kbd>Ctrl</kbd> + <kbd>K</kbd>",
    '<a href="x.md" class="button primary">Go</a>',
    "one<br>two",
    '[page.md](page.md "mention")',
    "costs $5, $$x_i * y$$ inline",
  ),
);
const paragraph = fc.array(inline, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(" "));

const block: fc.Arbitrary<string> = fc.letrec<{ block: string }>((tie) => ({
  block: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    paragraph,
    paragraph.map((p) => `## ${p.replace(/\n/g, " ")}`),
    paragraph.map((p) => `#### ${p.replace(/\n/g, " ")}`),
    paragraph.map((p) => `###### ${p.replace(/\n/g, " ")}`),
    fc
      .array(paragraph, { minLength: 1, maxLength: 3 })
      .map((items) => items.map((i) => `- ${i.replace(/\n/g, " ")}`).join("\n")),
    fc
      .array(paragraph, { minLength: 1, maxLength: 3 })
      .map((items) => items.map((i, n) => `${n + 3}. ${i.replace(/\n/g, " ")}`).join("\n")),
    fc
      .array(fc.tuple(fc.boolean(), words), { minLength: 1, maxLength: 3 })
      .map((items) => items.map(([done, text]) => `- [${done ? "x" : " "}] ${text}`).join("\n")),
    tie("block").map((b) =>
      b
        .split("\n")
        .map((line) => `> ${line}`)
        .join("\n"),
    ),
    fc.constantFrom(
      "```js\nconst a = 1;\n\n  b();\n```",
      "```\nplain\n```",
      "```math\nx^2\n```",
      "$$\nx_i^2\n$$",
      "---",
      "<div>raw</div>",
      '<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td>Card</td></tr></tbody></table>',
    ),
    fc.constantFrom("| a | b |\n| :- | -: |\n| 1 | *2* |", "| h |\n| - |\n| [l](https://x.y) |"),
    fc
      .tuple(fc.constantFrom("info", "warning", "danger", "success"), tie("block"))
      .map(([style, body]) => `{% hint style="${style}" %}\n${body}\n{% endhint %}`),
    fc
      .array(fc.tuple(words, tie("block")), { minLength: 1, maxLength: 2 })
      .map(
        (tabs) =>
          `{% tabs %}\n${tabs.map(([title, body]) => `{% tab title="${title.replace(/["{%}]/g, "")}" %}\n${body}\n{% endtab %}`).join("\n")}\n{% endtabs %}`,
      ),
    fc
      .array(tie("block"), { minLength: 1, maxLength: 2 })
      .map(
        (steps) =>
          `{% stepper %}\n${steps.map((s) => `{% step %}\n${s}\n{% endstep %}`).join("\n")}\n{% endstepper %}`,
      ),
    fc.constantFrom(
      '{% content-ref url="/pages/p2" %}\n[Other](/pages/p2)\n{% endcontent-ref %}',
      '{% embed url="https://www.youtube.com/watch?v=x" %}',
      '{% file src="/files/f2" %}',
      '{% code title="app.ts" %}\n```ts\nlet x\n```\n{% endcode %}',
      "> [!WARNING]\n> Mind the gap",
      '{% include "reusable/snippet.md" %}',
      '{% @github-files/github-code-block url="https://github.com/a/b/blob/main/x.py" %}',
      "{% @mermaid/diagram content='graph TD; A-->B' %}",
      '{% openapi src="https://api.example.com/spec.yaml" path="/pets" method="get" %}\n[spec](https://api.example.com/spec.yaml)\n{% endopenapi %}',
      '<figure><img src=".gitbook/assets/a.png" alt="A"><figcaption><p>Caption</p></figcaption></figure>',
    ),
    tie("block").map((b) => `<details>\n<summary>More</summary>\n\n${b}\n\n</details>`),
    tie("block").map((b) => `<details>\n\n<summary>Less</summary>\n\n${b}\n\n</details>`),
  ),
})).block;

const body = fc
  .tuple(
    fc.option(fc.constant("---\ndescription: About\n---\n\n")),
    fc.array(block, { minLength: 1, maxLength: 5 }),
  )
  .map(([frontMatter, blocks]) => `${frontMatter ?? ""}${blocks.join("\n\n")}\n`);

/**
 * The properties run on fixed seeds, so that a run of CI is the run a developer can repeat; a seed
 * of their own (`QUIRE_PROPERTY_SEED`) explores further, as the known failure below was found.
 */
const SEED = Number(process.env.QUIRE_PROPERTY_SEED ?? 20261125);

// Hundreds of generated bodies per property: seconds on a busy machine.
describe("GitBook's document and Markdown", { timeout: 60_000 }, () => {
  // Found by a random seed (1450860207) in CI: a body opening with a thematic break read every later
  // quote as a paragraph (remark-frontmatter tried the rule as an unclosed front matter).
  it("keeps a quoted code fence after a thematic break a quoted code block", () => {
    const markdown = "---\n\n> ```js\n> const a = 1;\n> \n>   b();\n> ```\n";
    const document = toDocument(markdown);
    expect(document.nodes.map((node) => node.type)).toEqual(["divider", "blockquote"]);
    expect(toDocument(markdownOf(document))).toEqual(document);
  });

  it("Markdown → document → Markdown is stable: the Markdown written converts to the same document, and is written again unchanged", () => {
    fc.assert(
      fc.property(body, (markdown) => {
        const document = toDocument(markdown);
        const written = markdownOf(document);
        expect(toDocument(written)).toEqual(document);
        expect(markdownOf(toDocument(written))).toBe(written);
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  it("writes a document read from a body back byte for byte, and keeps the blocks an edit left alone", () => {
    fc.assert(
      fc.property(body, block, fc.nat(), (markdown, added, at) => {
        const document = toDocument(markdown);
        expect(markdownOf(document, markdown)).toBe(markdown);
        const nodes = [...document.nodes];
        const inserted = toDocument(added).nodes;
        const index = at % (nodes.length + 1);
        nodes.splice(index, 0, ...inserted);
        const edited = markdownOf({ ...document, nodes }, markdown);
        // Heading anchors (`meta`) depend on the headings before: an inserted one can move them.
        expect(withoutMeta(toDocument(edited).nodes)).toEqual(withoutMeta(nodes));
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it("changes only the block edited: every other block keeps its text, beside and inside GitBook's blocks", () => {
    const withLeaf = (node: unknown): boolean => JSON.stringify(node).includes('"object":"leaf"');
    fc.assert(
      fc.property(
        fc.array(block, { minLength: 1, maxLength: 4 }),
        fc.array(block, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.nat(),
        (outer, inner, at, innerAt) => {
          const hint = `{% hint style="info" %}\n${inner.join("\n\n")}\n{% endhint %}`;
          const blocks = [...outer];
          blocks.splice(at % (blocks.length + 1), 0, hint);
          const markdown = `${blocks.join("\n\n")}\n`;
          const document = toDocument(markdown);
          // Pages whose blocks read as written one by one (two lists in a row make one, say).
          const hintAt = blocks.indexOf(hint);
          const one = (text: string) => toDocument(text).nodes.length === 1;
          fc.pre(blocks.every(one) && inner.every(one) && document.nodes.length === blocks.length);
          const hintNode = document.nodes[hintAt];
          fc.pre(hintNode?.type === "hint" && hintNode.nodes?.length === inner.length);
          const edited = innerAt % inner.length;
          // Text that reads as a tag (`{% hint %}` left open) is not text once edited: a known limit.
          fc.pre(
            withLeaf(hintNode?.nodes?.[edited]) && !JSON.stringify(hintNode?.nodes?.[edited]).includes("{%"),
          );
          // The first text of the block edited, a word longer.
          let done = false;
          const nodes = JSON.parse(JSON.stringify(document.nodes));
          const target = nodes[hintAt].nodes[edited];
          const visitLeaves = (node: Record<string, unknown>): void => {
            if (done) return;
            if (node.object === "leaf" && typeof node.text === "string") {
              node.text = `${node.text} edited`;
              done = true;
              return;
            }
            for (const key of ["nodes", "leaves", "fragments"])
              for (const child of (node[key] as Record<string, unknown>[] | undefined) ?? [])
                visitLeaves(child);
          };
          visitLeaves(target);
          const written = markdownOf({ ...document, nodes }, markdown);
          expect(withoutMeta(toDocument(written).nodes)).toEqual(withoutMeta(nodes));
          for (const text of outer) expect(written).toContain(text);
          for (const [i, text] of inner.entries()) if (i !== edited) expect(written).toContain(text);
          expect(written).toContain('{% hint style="info" %}\n');
        },
      ),
      { numRuns: 200, seed: SEED },
    );
  });

  it("keeps an untouched block's text exactly, front matter and all, when another block changes", () => {
    const previous =
      '---\nicon: book\n---\n\nKeep   *this*  text.\n\n{% hint style="info" %}\nA hint\n{% endhint %}\n\nOld.\n';
    const document = toDocument(previous);
    const nodes = [...document.nodes.slice(0, 2), ...toDocument("New **text**.").nodes];
    expect(markdownOf({ ...document, nodes }, previous)).toBe(
      '---\nicon: book\n---\n\nKeep   *this*  text.\n\n{% hint style="info" %}\nA hint\n{% endhint %}\n\nNew **text**.\n',
    );
  });

  it("keeps the text of a paragraph beside GitBook's blocks when another block changes", () => {
    const previous = 'Keep __this__ text.\n\n{% hint style="info" %}\nA hint\n{% endhint %}\n\nOld.\n';
    const document = toDocument(previous);
    const nodes = [...document.nodes.slice(0, 2), ...toDocument("New.").nodes];
    expect(markdownOf({ ...document, nodes }, previous)).toBe(
      'Keep __this__ text.\n\n{% hint style="info" %}\nA hint\n{% endhint %}\n\nNew.\n',
    );
  });

  it("writes blocks, lists and emphasis anew as GitBook's Git Sync does", () => {
    const gitBook = [
      "{% stepper %}",
      "{% step %}",
      "**Open the settings**",
      "",
      "* _Once_ there, pick one.",
      "* Or in*side* a word, or [support@gitbook.com](mailto:support@gitbook.com).",
      "{% endstep %}",
      "",
      "{% step %}",
      '{% hint style="info" %}',
      "A hint.",
      "{% endhint %}",
      "{% endstep %}",
      "{% endstepper %}",
      "",
    ].join("\n");
    expect(markdownOf(toDocument(gitBook))).toBe(gitBook);
  });

  it("writes an item of several blocks loose and indented 4, as Git Sync does, and a nested list tight", () => {
    const gitBook = [
      "1.  Open the page’s **Actions** menu",
      "",
      '    <figure><img src="menu.png" alt=""><figcaption></figcaption></figure>',
      "2. Select **Export**.",
      "   * As PDF",
      "",
    ].join("\n");
    expect(markdownOf(toDocument(gitBook))).toBe(gitBook);
  });

  it("keeps a code block's title, overflow, line numbers and expandability, written as GitBook writes them", () => {
    const code = (attributes: string) =>
      `{% code ${attributes} %}\n\`\`\`bash\nnpx skills add\n\`\`\`\n{% endcode %}\n`;
    const options = 'title="install.sh" overflow="wrap" lineNumbers="true" expandable="true"';
    const [block] = toDocument(code(options)).nodes;
    expect(block).toMatchObject({
      type: "code",
      data: { syntax: "bash", title: "install.sh", overflow: "wrap", lineNumbers: true, expandable: true },
    });
    expect(markdownOf(toDocument(code(options)))).toBe(code(options));
    expect(markdownOf(toDocument(code('expandable="true"')))).toBe(code('expandable="true"'));
    // What a code block cannot take is not written.
    const odd = { ...block, data: { syntax: "bash", overflow: "sideways", lineNumbers: "yes" } };
    expect(markdownOf({ object: "document", data: {}, nodes: [odd] })).toBe("```bash\nnpx skills add\n```\n");
  });

  it("writes an image alone as GitBook's figure, its caption in it, and images side by side as Markdown's", () => {
    const figure =
      '<figure><img src="../.gitbook/assets/a &#x26; b.png" alt="The &quot;settings&quot;"><figcaption><p>Your settings &#x26; more.</p></figcaption></figure>\n';
    const [image] = toDocument(figure).nodes;
    expect(image).toMatchObject({
      type: "images",
      nodes: [{ type: "image", data: { alt: 'The "settings"' } }],
    });
    const written = markdownOf(toDocument(figure));
    expect(written).toBe(
      '<figure><img src="../.gitbook/assets/a &#x26; b.png" alt="The &#x22;settings&#x22;"><figcaption><p>Your settings &#x26; more.</p></figcaption></figure>\n',
    );
    expect(toDocument(written)).toEqual(toDocument(figure));
    const bare = '<figure><img src="x.png" alt=""><figcaption></figcaption></figure>\n';
    expect(markdownOf(toDocument(bare))).toBe(bare);
    expect(markdownOf(toDocument("![a](a.png) ![b](b.png)\n"))).toBe("![a](a.png) ![b](b.png)\n");
  });

  it("reads a heading's own anchor, as Git Sync writes it, into GitBook's data.id, and writes it back", () => {
    const markdown = '### Choose the endpoint <a href="#pick-one" id="pick-one"></a>\n\nText.\n';
    const [heading] = toDocument(markdown).nodes;
    expect(heading).toMatchObject({ type: "heading-3", data: { id: "pick-one" }, meta: { id: "pick-one" } });
    expect(JSON.stringify(heading?.nodes)).not.toContain("<a");
    expect(markdownOf(toDocument(markdown))).toBe(markdown);
    // An id GitBook's anchors cannot have is not written.
    const odd = { ...heading, data: { id: "Not An Id" } };
    expect(markdownOf({ object: "document", data: {}, nodes: [odd] })).toBe("### Choose the endpoint\n");
  });

  it("keeps HTML as HTML: keys as GitBook's keyboard mark, other tags and blocks as they were written", () => {
    const markdown = [
      'Press <kbd>⌘</kbd> + <kbd>K</kbd>, then <a href="quickstart.md" class="button primary">Quickstart</a>.',
      "",
      '<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td>Card</td></tr></tbody></table>',
      "",
    ].join("\n");
    const [paragraph, cards] = toDocument(markdown).nodes;
    expect(paragraph?.nodes?.[0]).toEqual({
      object: "text",
      leaves: [
        { object: "leaf", text: "Press ", marks: [] },
        { object: "leaf", text: "⌘", marks: [{ object: "mark", type: "keyboard" }] },
        { object: "leaf", text: " + ", marks: [] },
        { object: "leaf", text: "K", marks: [{ object: "mark", type: "keyboard" }] },
        { object: "leaf", text: ", then ", marks: [] },
      ],
    });
    expect(paragraph?.nodes?.[1]).toEqual({
      object: "inline",
      type: "html",
      data: { html: '<a href="quickstart.md" class="button primary">' },
      isVoid: true,
    });
    expect(cards).toEqual({
      object: "block",
      type: "html",
      data: { html: markdown.split("\n")[2] },
      isVoid: true,
    });
    expect(markdownOf(toDocument(markdown))).toBe(markdown);
    // Edited, the paragraph is written with its HTML, not as text showing it.
    const edited = markdownOf(toDocument(markdown.replace("then", "and then")), markdown);
    expect(edited).toBe(markdown.replace("then", "and then"));
  });

  it("writes a mention, a heading below level 3 and an expandable as Git Sync does", () => {
    const markdown = [
      "#### Explore",
      "",
      'Read [share.md](../share.md "mention") first.',
      "",
      "<details>",
      "",
      "<summary>Members &#x26; teams</summary>",
      "",
      "| Role  | Can |",
      "| ----- | --- |",
      "| Admin | All |",
      "",
      "</details>",
      "",
    ].join("\n");
    const [heading, paragraph, expandable] = toDocument(markdown).nodes;
    expect(heading).toMatchObject({ type: "heading-3", data: { level: 4 } });
    expect(paragraph?.nodes?.[1]).toMatchObject({
      object: "inline",
      type: "mention",
      data: { ref: { kind: "url", url: "../share.md" } },
      isVoid: true,
    });
    expect(expandable).toMatchObject({
      type: "expandable",
      fragments: [{ nodes: [{ nodes: [{ leaves: [{ text: "Members & teams" }] }] }] }, {}],
    });
    expect(markdownOf(toDocument(markdown))).toBe(markdown);
  });

  it("keeps what GitBook's blocks carry: icons, an expandable's state and marked title, a file's caption", () => {
    const markdown = [
      '{% hint style="info" icon="books" %}',
      "Read this.",
      "{% endhint %}",
      "",
      "{% tabs %}",
      '{% tab title="macOS" icon="apple" %}',
      "brew install",
      "{% endtab %}",
      "{% endtabs %}",
      "",
      "<details open>",
      "",
      "<summary>Use <code>x-page-title</code> &#x26; <strong>more</strong></summary>",
      "",
      "Body.",
      "",
      "</details>",
      "",
      '{% file src="/files/f1" %}',
      "This is a caption on a file.",
      "{% endfile %}",
      "",
      '{% content-ref url="../formatting/inline.md" %}',
      "[inline.md](../formatting/inline.md)",
      "{% endcontent-ref %}",
      "",
    ].join("\n");
    const [hint, tabs, expandable, file] = toDocument(markdown).nodes;
    expect(hint?.data).toEqual({ style: "info", icon: "books" });
    expect(tabs?.nodes?.[0]).toMatchObject({ data: { title: "macOS", icon: "apple" } });
    expect(expandable).toMatchObject({
      data: { defaultExpanded: true },
      fragments: [
        {
          nodes: [
            {
              nodes: [
                {
                  leaves: [
                    { text: "Use ", marks: [] },
                    { text: "x-page-title", marks: [{ type: "code" }] },
                    { text: " & ", marks: [] },
                    { text: "more", marks: [{ type: "bold" }] },
                  ],
                },
              ],
            },
          ],
        },
        {},
      ],
    });
    expect(file).toMatchObject({ type: "file", fragments: [{ fragment: "caption" }] });
    expect(markdownOf(toDocument(markdown))).toBe(markdown);
  });

  it("writes a link that was its address alone so again, and no escapes GitBook does not write", () => {
    const markdown = [
      "Mail support@gitbook.com or see **https://app.gitbook.com/account** (from [https://x.io](https://x.io)).",
      "",
      "Lambda@Edge and Add new... stay as they are.",
      "",
    ].join("\n");
    const [links, text] = toDocument(markdown).nodes;
    expect(links?.nodes?.[1]).toMatchObject({
      type: "link",
      data: { ref: { kind: "url", url: "mailto:support@gitbook.com" }, literal: true },
    });
    expect(links?.nodes?.[5]).toMatchObject({ type: "link", data: { ref: { url: "https://x.io" } } });
    expect(links?.nodes?.[5]).not.toHaveProperty("data.literal");
    expect(text?.nodes).toHaveLength(1);
    expect(markdownOf(toDocument(markdown))).toBe(markdown);
    // Where what follows would run on into its address, the link is written with its brackets.
    const [link] = toDocument("https://x.io").nodes[0]?.nodes ?? [];
    const glued = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [link, { object: "text", leaves: [{ object: "leaf", text: "/more", marks: [] }] }],
        },
      ],
    };
    expect(markdownOf(glued)).toBe("[https://x.io](https://x.io)/more\n");
  });

  it("gives GitBook's columns, conditions, updates and prompts, and writes them back as Git Sync does", () => {
    const markdown = [
      "{% columns %}",
      '{% column width="50%" %}',
      "Left.",
      "{% endcolumn %}",
      "",
      "{% column %}",
      "Right.",
      "{% endcolumn %}",
      "{% endcolumns %}",
      "",
      '{% if visitor.claims.unsigned.plan === "pro" %}',
      "Only for **pro**.",
      "{% endif %}",
      "",
      '{% updates format="full" %}',
      '{% update date="2025-12-25" tags="beta,ui" %}',
      "## New editor",
      "{% endupdate %}",
      "{% endupdates %}",
      "",
      '{% prompt description="Example prompt" icon="rectangle-terminal" defaultExpanded="full" %}',
      "```markdown",
      "Summarize the release.",
      "```",
      "{% endprompt %}",
      "",
    ].join("\n");
    const [columns, condition, updates, prompt] = toDocument(markdown).nodes;
    expect(columns).toMatchObject({
      type: "columns",
      nodes: [
        { type: "column", data: { width: { value: 50, unit: "%" } } },
        { type: "column", data: {} },
      ],
    });
    expect(condition).toMatchObject({
      type: "if",
      data: { expression: 'visitor.claims.unsigned.plan === "pro"' },
    });
    expect(updates).toMatchObject({
      type: "updates",
      data: { format: "full" },
      nodes: [
        {
          type: "update",
          data: {
            date: "2025-12-25",
            tags: [
              { kind: "tag", tag: "beta" },
              { kind: "tag", tag: "ui" },
            ],
          },
        },
      ],
    });
    expect(prompt).toMatchObject({
      type: "prompt",
      data: { description: "Example prompt", icon: "rectangle-terminal", defaultExpanded: "full" },
      nodes: [{ type: "code", data: { syntax: "markdown" } }],
    });
    expect(markdownOf(toDocument(markdown))).toBe(markdown);
  });

  it("ends HTML at a tag's line, as GitBook reads it, in a quote too", () => {
    const figure = '<figure><img src="a.png" alt=""><figcaption></figcaption></figure>';
    const markdown = [
      "{% columns %}",
      "{% column %}",
      figure,
      "{% endcolumn %}",
      "{% endcolumns %}",
      "",
    ].join("\n");
    const [columns] = toDocument(markdown).nodes;
    expect(columns).toMatchObject({
      type: "columns",
      nodes: [{ type: "column", nodes: [{ type: "images" }] }],
    });
    expect(markdownOf(toDocument(markdown))).toBe(markdown);
    const quoted = markdown
      .trimEnd()
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n");
    expect(toDocument(quoted).nodes[0]?.nodes).toEqual(toDocument(markdown).nodes);
  });

  it("reads GitBook's formulas, a block's between $$ lines and $$…$$ in a text, and writes them so", () => {
    const markdown =
      "$$\ns = \\sqrt{\\frac{1}{N-1} \\sum_{i=1}^N (x_i - \\overline{x})^2}\n$$\n\nInline: $$f(x) = x * e^{2 pi i \\xi x}$$, for $5.\n";
    const [block, paragraph] = toDocument(markdown).nodes;
    expect(block).toMatchObject({
      type: "math",
      data: { formula: "s = \\sqrt{\\frac{1}{N-1} \\sum_{i=1}^N (x_i - \\overline{x})^2}" },
    });
    expect(paragraph?.nodes?.[1]).toMatchObject({
      type: "inline-math",
      data: { formula: "f(x) = x * e^{2 pi i \\xi x}" },
    });
    expect(markdownOf(toDocument(markdown))).toBe(markdown);
    // A formula Quire wrote before, in a fenced `math` block, is one too.
    expect(toDocument("```math\nx^2\n```\n").nodes).toEqual(toDocument("$$\nx^2\n$$\n").nodes);
  });

  it("refuses HTML that Markdown would not read back as the one tag or block sent", () => {
    const refused = (node: unknown) => {
      const outcome = fromDocument({ document: { object: "document", data: {}, nodes: [node] } });
      return "invalid" in outcome ? outcome.invalid : undefined;
    };
    const html = (value: unknown) => ({ object: "block", type: "html", data: { html: value }, isVoid: true });
    expect(refused(html("<div>\n\n# Not HTML any more</div>"))).toMatch(
      /document\.nodes\[0\]\.data\.html must be HTML that Markdown reads as one block/,
    );
    expect(refused(html("plain text"))).toMatch(/must be HTML that Markdown reads as one block/);
    expect(refused(html("<details>\n<summary>More</summary>"))).toMatch(
      /data\.html: a <details> is GitBook's expandable block/,
    );
    expect(refused(html(3))).toMatch(/document\.nodes\[0\]\.data\.html must be a string/);
    const inline = (value: string) => ({
      object: "block",
      type: "paragraph",
      nodes: [{ object: "inline", type: "html", data: { html: value }, isVoid: true }],
    });
    expect(refused(inline("<b>bold</b>"))).toMatch(
      /document\.nodes\[0\]\.nodes\[0\]\.data\.html must be one HTML tag or comment/,
    );
    expect(refused(inline("<br>"))).toBeUndefined();
  });

  it("keeps the front matter when the page is written anew", () => {
    const previous = "---\ndescription: Kept.\n---\n\n* a\n\nOld.\n";
    const document = toDocument(previous);
    // A list after a list: the kept text would read as one list, so the body is written anew.
    const nodes = [...document.nodes.slice(0, 1), ...toDocument("* b").nodes];
    const anew = markdownOf({ ...document, nodes });
    expect(markdownOf({ ...document, nodes }, previous)).toBe(`---\ndescription: Kept.\n---\n\n${anew}`);
    expect(toDocument(anew).nodes).toHaveLength(2);
  });

  it("keeps a block a client sends without its empty data as the block it read", () => {
    const previous = "Keep   *this*  text.\n\nOld.\n";
    const [kept] = toDocument(previous).nodes;
    const { data: _, ...withoutData } = kept ?? {};
    const nodes = [withoutData, ...toDocument("New.").nodes];
    expect(markdownOf({ object: "document", data: {}, nodes }, previous)).toBe(
      "Keep   *this*  text.\n\nNew.\n",
    );
  });

  it("gives GitBook's blocks, marks, references and heading anchors", () => {
    const document = toDocument(
      '## Set up\n\nRead **[the guide](/pages/p1#install)** and `npm i`.\n\n{% hint style="warning" %}\nCareful\n{% endhint %}\n\n- [x] done\n',
    );
    expect(document.nodes.map((node) => node.type)).toEqual(["heading-2", "paragraph", "hint", "list-tasks"]);
    expect(document.nodes[0]?.meta).toEqual({ id: "set-up" });
    expect(document.nodes[1]?.nodes).toEqual([
      { object: "text", leaves: [{ object: "leaf", text: "Read ", marks: [] }] },
      {
        object: "inline",
        type: "link",
        data: { ref: { kind: "anchor", anchor: "install", page: "p1" } },
        nodes: [
          {
            object: "text",
            leaves: [{ object: "leaf", text: "the guide", marks: [{ object: "mark", type: "bold" }] }],
          },
        ],
      },
      {
        object: "text",
        leaves: [
          { object: "leaf", text: " and ", marks: [] },
          { object: "leaf", text: "npm i", marks: [{ object: "mark", type: "code" }] },
          { object: "leaf", text: ".", marks: [] },
        ],
      },
    ]);
    expect(document.nodes[2]?.data).toEqual({ style: "warning" });
    expect(document.nodes[3]?.nodes?.[0]).toMatchObject({ type: "list-item", data: { checked: true } });
  });

  it("writes a document from GitBook's editor as Git Sync would", () => {
    const document: JSONDocument = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "heading-1",
          data: {},
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Title", marks: [] }] }],
        },
        {
          object: "block",
          type: "paragraph",
          nodes: [
            {
              object: "text",
              leaves: [{ object: "leaf", text: "Two ", marks: [{ object: "mark", type: "italic" }] }],
            },
            {
              object: "text",
              leaves: [{ object: "leaf", text: "leaves", marks: [{ object: "mark", type: "italic" }] }],
            },
            { object: "inline", type: "emoji", data: { code: "1f600" }, isVoid: true },
          ],
        },
        { object: "block", type: "embed", data: { url: "https://example.com/v" }, isVoid: true },
        { object: "block", type: "math", data: { formula: "e=mc^2" }, isVoid: true },
      ],
    };
    expect(markdownOf(document)).toBe(
      '# Title\n\n*Two leaves*😀\n\n{% embed url="https://example.com/v" %}\n\n$$\ne=mc^2\n$$\n',
    );
  });

  it("gives GitBook's integration block for an integration's tag, its attributes the props", () => {
    const url = "https://github.com/BugSplat-Git/python-crash-upload/blob/main/upload.py";
    const document = toDocument(
      `{% @github-files/github-code-block url="${url}" %}\n\nSee {% @mermaid/diagram content="graph TD; A-->B" %}\n`,
    );
    expect(document.nodes).toEqual([
      {
        object: "block",
        type: "integration",
        data: { integration: "github-files", block: "github-code-block", props: { url }, url },
        isVoid: true,
      },
      { object: "block", type: "paragraph", data: {}, nodes: [expect.objectContaining({ object: "text" })] },
      {
        object: "block",
        type: "integration",
        data: { integration: "mermaid", block: "diagram", props: { content: "graph TD; A-->B" } },
        isVoid: true,
      },
    ]);
  });

  it("writes an integration block as Git Sync does, its props in order, and reads it back the same", () => {
    const integration = (data: Record<string, unknown>) => ({
      object: "document",
      data: {},
      nodes: [{ object: "block", type: "integration", data, isVoid: true }],
    });
    const document = integration({
      integration: "arcade",
      block: "embed",
      props: { flowId: "f1", url: "https://app.arcade.software/share/f1", title: 'Say "hi"', width: 640 },
      url: "https://app.arcade.software/share/f1",
    });
    const written = markdownOf(document);
    expect(written).toBe(
      '{% @arcade/embed flowId="f1" url="https://app.arcade.software/share/f1" title="Say &quot;hi&quot;" width="640" %}\n',
    );
    // Read back as written: a tag's `&quot;` is not decoded, for any tag.
    expect(toDocument(written).nodes[0]?.data).toEqual({
      integration: "arcade",
      block: "embed",
      props: {
        flowId: "f1",
        url: "https://app.arcade.software/share/f1",
        title: "Say &quot;hi&quot;",
        width: "640",
      },
      url: "https://app.arcade.software/share/f1",
    });
    expect(markdownOf(integration({ integration: "mermaid", block: "diagram", props: {} }))).toBe(
      "{% @mermaid/diagram %}\n",
    );
  });

  it("keeps an integration block's line byte for byte when a neighbouring paragraph changes", () => {
    const previous =
      "Intro.\n\n{%  @github-files/github-code-block url='https://github.com/a/b/blob/main/x.py'   %}\n{% @mermaid/diagram content=\"graph TD; A-->B\" %}\nOld.\n";
    const document = toDocument(previous);
    expect(document.nodes.map((node) => node.type)).toEqual([
      "paragraph",
      "integration",
      "integration",
      "paragraph",
    ]);
    expect(markdownOf(document, previous)).toBe(previous);
    const nodes = [...document.nodes.slice(0, 3), ...toDocument("New.").nodes];
    expect(markdownOf({ ...document, nodes }, previous)).toBe(
      "Intro.\n\n{%  @github-files/github-code-block url='https://github.com/a/b/blob/main/x.py'   %}\n{% @mermaid/diagram content=\"graph TD; A-->B\" %}\n\nNew.\n",
    );
  });

  it("refuses an integration block without its names, or whose props are not attributes", () => {
    const refused = (data: unknown) => {
      const outcome = fromDocument({
        document: {
          object: "document",
          data: {},
          nodes: [{ object: "block", type: "integration", data, isVoid: true }],
        },
      });
      return "invalid" in outcome ? outcome.invalid : undefined;
    };
    expect(refused({ block: "diagram", props: {} })).toMatch(
      /document\.nodes\[0\]\.data\.integration must be a string/,
    );
    expect(refused({ integration: "mermaid", props: {} })).toMatch(
      /document\.nodes\[0\]\.data\.block must be a string/,
    );
    expect(refused({ integration: "my app", block: "x", props: {} })).toMatch(
      /document\.nodes\[0\]\.data: an integration's and its block's names must be/,
    );
    expect(refused({ integration: "mermaid", block: "diagram", props: "graph" })).toMatch(
      /document\.nodes\[0\]\.data\.props must be an object/,
    );
    expect(refused({ integration: "mermaid", block: "diagram", props: { "a b": "x" } })).toMatch(
      /"a b" cannot be an attribute's name/,
    );
    expect(refused({ integration: "mermaid", block: "diagram", props: { content: { nested: 1 } } })).toMatch(
      /document\.nodes\[0\]\.data\.props\.content must be a string, a number or a boolean/,
    );
  });

  it("refuses what is not a document, naming the node at fault", () => {
    const refused = (document: unknown) => {
      const outcome = fromDocument({ document });
      return "invalid" in outcome ? outcome.invalid : undefined;
    };
    expect(refused({ object: "page" })).toMatch(/document must be a document/);
    expect(
      refused({
        object: "document",
        data: {},
        nodes: [
          { object: "block", type: "paragraph", nodes: [] },
          { object: "block", type: "drawing", data: {} },
        ],
      }),
    ).toMatch(/document\.nodes\[1\]: Quire cannot store a block of type "drawing"/);
    expect(
      refused({
        object: "document",
        data: {},
        nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "text", leaves: [{ text: 3 }] }] }],
      }),
    ).toMatch(/document\.nodes\[0\]\.nodes\[0\]\.leaves\[0\] must be a leaf with a text/);
  });
});
