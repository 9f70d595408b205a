import { describe, expect, it } from "vitest";
import { analyze, renderHtml } from "./markdown.js";

const html = (markdown: string, rewrite?: Record<string, string>) =>
  renderHtml({ markdown, ...(rewrite && { rewrite }) });
const texts = (markdown: string) => analyze(markdown).sections.map((section) => section.text);

/** A page as GitBook's Git Sync exports it, every kind of block in it. */
const gitbookPage = `---
description: Everything about installing.
icon: download
layout:
  title:
    visible: true
hidden: true
---

# Installing

{% hint style="warning" %}
Back up **first**.
{% endhint %}

{% tabs %}
{% tab title="npm" %}
\`\`\`sh
npm install quire
\`\`\`

{% hint style="success" %}
Works offline.
{% endhint %}
{% endtab %}

{% tab title="Yarn" %}
- yarn add quire
- yarn build
{% endtab %}
{% endtabs %}

## Next

{% content-ref url="configure.md" %}
[Configure](configure.md)
{% endcontent-ref %}

{% page-ref page="legacy.md" %}

{% embed url="https://www.youtube.com/watch?v=abc" %}
The walkthrough video
{% endembed %}

{% stepper %}
{% step %}
### Download
Get the archive.
{% endstep %}

{% step %}
### Unpack
Extract it.
{% endstep %}
{% endstepper %}

{% code title="app.js" overflow="wrap" lineNumbers="true" %}
\`\`\`js
start();
\`\`\`
{% endcode %}

{% file src="../.gitbook/assets/guide%20v2.pdf" %}
The printable guide
{% endfile %}

{% include "../.gitbook/includes/support.md" %}

{% @github-files/github-code-block url="https://github.com/BugSplat-Git/python-crash-upload/blob/main/upload.py" %}

{% openapi src="https://api.example.com/openapi.yaml" path="/pets" method="get" %}
[openapi.yaml](https://api.example.com/openapi.yaml)
{% endopenapi %}

{% swagger method="post" path="/pets" baseUrl="https://api.example.com" summary="Add a pet" %}
{% swagger-description %}
Creates a pet.
{% endswagger-description %}

{% swagger-parameter in="body" name="name" type="string" required="true" %}
The pet's name
{% endswagger-parameter %}

{% swagger-response status="201" description="Created" %}
Done.
{% endswagger-response %}
{% endswagger %}

> [!TIP]
> Alerts work as well.
`;

describe("GitBook's blocks", () => {
  it("a hint is a note of its style, its body rendered as markdown", () => {
    expect(html('{% hint style="danger" %}\nDo **not**.\n{% endhint %}')).toBe(
      '<div class="hint hint-danger" role="note"><p>Do <strong>not</strong>.</p></div>',
    );
    for (const style of ["info", "success", "warning"])
      expect(html(`{% hint style="${style}" %}\nx\n{% endhint %}`)).toContain(`class="hint hint-${style}"`);
    expect(html("{% hint style='odd' %}\nx\n{% endhint %}")).toContain('class="hint hint-info"');
    expect(html("{%hint%}\nx\n{%endhint%}")).toContain('class="hint hint-info"');
  });

  it("a hint ends the list or quote before its end tag, which would otherwise continue them", () => {
    expect(html("{% hint %}\n- a\n- b\n{% endhint %}\nafter")).toBe(
      '<div class="hint hint-info" role="note"><ul>\n<li>a</li>\n<li>b</li>\n</ul></div>\n<p>after</p>',
    );
    expect(html("{% hint %}\n> quoted\n{% endhint %}")).toContain(
      "<blockquote>\n<p>quoted</p>\n</blockquote></div>",
    );
    expect(html("Before\n{% hint %}\ninside\n{% endhint %}\nafter")).toBe(
      '<p>Before</p>\n<div class="hint hint-info" role="note"><p>inside</p></div>\n<p>after</p>',
    );
  });

  it("tabs are a tab list named by their titles over their panels, blocks nested in them rendered too", () => {
    const tabs =
      '{% tabs %}\n{% tab title="A" %}\n{% hint style="success" %}\nIn A.\n{% endhint %}\n{% endtab %}\n\n{% tab title="B" %}\nIn B.\n{% endtab %}\n{% endtabs %}';
    expect(html(tabs)).toBe(
      [
        '<div class="content-tabs"><div role="tablist">',
        '<button type="button" role="tab" id="quire-tab-1-1" aria-controls="quire-panel-1-1" aria-selected="true">A</button>',
        '<button type="button" role="tab" id="quire-tab-1-2" aria-controls="quire-panel-1-2" aria-selected="false" tabindex="-1">B</button></div>',
        '<section class="tab-panel" role="tabpanel" id="quire-panel-1-1" aria-labelledby="quire-tab-1-1" tabindex="0"><div class="hint hint-success" role="note"><p>In A.</p></div></section>',
        '<section class="tab-panel" role="tabpanel" id="quire-panel-1-2" aria-labelledby="quire-tab-1-2" tabindex="0" hidden><p>In B.</p></section></div>',
      ].join(""),
    );
    expect(texts(tabs)).toEqual(["A\nIn A.\nB\nIn B."]);
  });

  it("a content reference is a link card, its URL among the links and rewritten as any link", () => {
    const ref = '{% content-ref url="setup.md" %}\n[Setup](setup.md)\n{% endcontent-ref %}';
    expect(html(ref)).toBe('<p><a href="setup.md" class="content-ref">Setup</a></p>');
    expect(analyze(ref).links).toEqual(["setup.md"]);
    expect(html(ref, { "setup.md": "/docs/setup" })).toBe(
      '<p><a href="/docs/setup" class="content-ref">Setup</a></p>',
    );
    expect(html(ref, { "setup.md": "" })).toBe("<p>Setup</p>");
    // Written on one line, and in GitBook's older form.
    expect(html('{% content-ref url="a.md" %}[A](a.md){% endcontent-ref %}')).toBe(
      '<p><a href="a.md" class="content-ref">A</a></p>',
    );
    expect(html('{% page-ref page="old/page.md" %}', { "old/page.md": "/docs/old" })).toBe(
      '<p><a href="/docs/old" class="content-ref">old/page.md</a></p>',
    );
    expect(analyze('{% page-ref page="old/page.md" %}').links).toEqual(["old/page.md"]);
  });

  it("a content reference whose body is more than its link keeps that body after the card", () => {
    expect(html('{% content-ref url="a.md" %}\nSee [A](a.md) first.\n{% endcontent-ref %}')).toBe(
      '<p><a href="a.md" class="content-ref">a.md</a></p>\n<p>See <a href="a.md">A</a> first.</p>',
    );
  });

  it("an embed is a link to its URL, never a frame, with its caption when it has one", () => {
    expect(html('{% embed url="https://example.com/v?id=1" %}')).toBe(
      '<div class="embed"><p><a href="https://example.com/v?id=1">https://example.com/v?id=1</a></p></div>',
    );
    const captioned = html('{% embed url="https://example.com/v" %}\nThe video\n{% endembed %}');
    expect(captioned).toBe(
      '<div class="embed"><p><a href="https://example.com/v">https://example.com/v</a></p><p>The video</p></div>',
    );
    expect(captioned).not.toContain("iframe");
  });

  it("a stepper is an ordered list of its steps, their headings the page's sections", () => {
    const stepper =
      "{% stepper %}\n{% step %}\n## One\nFirst.\n{% endstep %}\n{% step %}\n## Two\nSecond.\n{% endstep %}\n{% endstepper %}";
    expect(html(stepper)).toBe(
      '<ol class="stepper"><li class="step"><h2 id="one">One<a href="#one" class="permalink" aria-label="Link to this section">#</a></h2><p>First.</p></li><li class="step"><h2 id="two">Two<a href="#two" class="permalink" aria-label="Link to this section">#</a></h2><p>Second.</p></li></ol>',
    );
    expect(analyze(stepper).anchors).toEqual(["one", "two"]);
  });

  it("a code block's title is a caption above it; without one the code is as it was", () => {
    expect(html('{% code title="app.js" lineNumbers="true" %}\n```js\nrun();\n```\n{% endcode %}')).toBe(
      '<div class="code-block"><p class="code-title">app.js</p><pre tabindex="0"><code class="language-js">run();\n</code></pre></div>',
    );
    expect(html('{% code overflow="wrap" %}\n```\nrun();\n```\n{% endcode %}')).toBe(
      `<pre tabindex="0"><code>run();\n</code></pre>`,
    );
  });

  it("a file is a link to it, its source among the links, with its caption", () => {
    const file = '{% file src="../assets/My%20guide.pdf" %}\nThe guide\n{% endfile %}';
    expect(html(file)).toBe(
      '<div class="file"><p><a href="../assets/My%20guide.pdf">My guide.pdf</a></p><p>The guide</p></div>',
    );
    expect(analyze(file).links).toEqual(["../assets/My%20guide.pdf"]);
    expect(html(file, { "../assets/My%20guide.pdf": "/files/f1" })).toContain('<a href="/files/f1">');
    expect(html('{% file src="a.zip" %}Some *caption*{% endfile %}')).toBe(
      '<div class="file"><p><a href="a.zip">a.zip</a></p><p>Some <em>caption</em></p></div>',
    );
    expect(html('{% file src="b.zip" %}')).toBe('<div class="file"><p><a href="b.zip">b.zip</a></p></div>');
    expect(html('{% file src="files/100%.pdf" %}')).toContain('">100%.pdf</a>');
  });

  it("an include and an API reference are notes naming what they show", () => {
    expect(html('{% include "../.gitbook/includes/footer.md" %}')).toBe(
      '<p class="block-note">Included content: ../.gitbook/includes/footer.md</p>',
    );
    expect(
      html('{% openapi src="https://x.test/api.yaml" path="/pets" method="get" %}\n{% endopenapi %}'),
    ).toBe(
      '<div class="hint hint-info" role="note"><p class="block-note">API reference: GET /pets https://x.test/api.yaml</p></div>',
    );
    expect(html('{% swagger src="spec.json" path="/a" method="post" %}')).toContain(
      '<p class="block-note">API reference: POST /a spec.json</p>',
    );
  });

  it("an integration's block is a link card to its URL with a note naming it, never its tag", () => {
    const url = "https://github.com/BugSplat-Git/python-crash-upload/blob/main/upload.py";
    const line = `{% @github-files/github-code-block url="${url}" %}`;
    expect(html(line)).toBe(
      `<div class="integration"><p><a href="${url}" class="content-ref">${url}</a></p><p class="block-note">Integration block: github-files/github-code-block</p></div>`,
    );
    expect(analyze(line).links).toEqual([url]);
    expect(texts(line).join("")).not.toContain("{%");
    // Its line ends the list before it, as any tag's line does.
    expect(html('- item\n{% @arcade/embed flowId="f1" url="https://app.arcade.software/share/f1" %}')).toBe(
      '<ul>\n<li>item</li>\n</ul>\n<div class="integration"><p><a href="https://app.arcade.software/share/f1" class="content-ref">https://app.arcade.software/share/f1</a></p><p class="block-note">Integration block: arcade/embed</p></div>',
    );
  });

  it("a block in a paragraph's text is read with the URLs in its attributes, which GFM would link apart", () => {
    expect(
      html('Before {% @figma/embed fileId="a1" url="https://www.figma.com/file/a1" %} after https://x.test'),
    ).toBe(
      '<p>Before</p>\n<div class="integration"><p><a href="https://www.figma.com/file/a1" class="content-ref">https://www.figma.com/file/a1</a></p><p class="block-note">Integration block: figma/embed</p></div>\n<p>after <a href="https://x.test">https://x.test</a></p>',
    );
    expect(html('Watch {% embed url="https://example.com/v" %} now')).toBe(
      '<p>Watch</p>\n<div class="embed"><p><a href="https://example.com/v">https://example.com/v</a></p></div>\n<p>now</p>',
    );
    // A link written as one stays a link, and in a tag never closed so does a URL.
    expect(html("See {% embed url=[v](https://example.com/v) %}")).toBe(
      '<p>See {% embed url=<a href="https://example.com/v">v</a> %}</p>',
    );
    expect(html("Open {% hint https://x.test")).toBe(
      '<p>Open {% hint <a href="https://x.test">https://x.test</a></p>',
    );
  });

  it("an integration's block without a URL is a note naming it, a diagram's source shown as code", () => {
    expect(html('{% @mermaid/diagram content="graph TD; A-->B" %}')).toBe(
      '<div class="integration"><p class="block-note">Integration block: mermaid/diagram</p><pre tabindex="0"><code class="language-mermaid">graph TD; A-->B\n</code></pre></div>',
    );
    expect(html("{% @acme/widget %}")).toBe(
      '<div class="integration"><p class="block-note">Integration block: acme/widget</p></div>',
    );
    // Not an integration's block: no block named.
    expect(html("{% @acme %}")).toBe("<p>{% @acme %}</p>");
  });

  it("keeps a block that is not closed, an unknown tag and a stray end tag as the text written", () => {
    expect(html('{% hint style="info" %}\nNever closed.')).toBe(
      '<p>{% hint style="info" %}</p>\n<p>Never closed.</p>',
    );
    expect(html("{% raw %}\nkept\n{% endraw %}")).toBe("<p>{% raw %}\nkept\n{% endraw %}</p>");
    expect(html("{% endtabs %}")).toBe("<p>{% endtabs %}</p>");
    // The tab closes; the hint opened in it, never closed, stays text inside it.
    expect(html('{% tab title="A" %}\n{% hint %}\nx\n{% endtab %}')).toBe(
      '<section class="tab"><p class="tab-title">A</p><p>{% hint %}</p><p>x</p></section>',
    );
    expect(texts("{% hint %}\nNever closed.")).toEqual(["{% hint %}\nNever closed."]);
  });

  it("reads many tags left open, or never ended, keeping their text", () => {
    expect(texts("{% hint %}\n".repeat(20_000)).join("").length).toBeGreaterThan(0);
    expect(texts(`x ${"{% hint ".repeat(50_000)}`).join("").length).toBeGreaterThan(0);
    // A long name never closed, an integration's too.
    expect(texts(`{% ${"a".repeat(100_000)}`).join("").length).toBeGreaterThan(0);
    expect(texts(`{% @${"b".repeat(100_000)}/${"c".repeat(100_000)}`).join("").length).toBeGreaterThan(0);
    expect(texts(`${"{% tabs %}\n{% tab %}\n".repeat(5_000)}{% endtabs %}`).join("")).not.toContain(
      "{% endtabs %}",
    );
  });

  it("leaves tags in code as code", () => {
    expect(html("```\n{% hint %}\nx\n{% endhint %}\n```")).toBe(
      `<pre tabindex="0"><code>{% hint %}\nx\n{% endhint %}\n</code></pre>`,
    );
    expect(html("Write `{% hint %}` to open one.")).toBe("<p>Write <code>{% hint %}</code> to open one.</p>");
    expect(html("    {% hint %}\n    x\n    {% endhint %}")).toBe(
      `<pre tabindex="0"><code>{% hint %}\nx\n{% endhint %}\n</code></pre>`,
    );
  });
});

describe("front matter", () => {
  it("is not shown nor indexed, and what GitBook reads of it is in the analysis", () => {
    const page =
      "---\ndescription: About it.\nicon: book\nhidden: true\nlayout:\n  title:\n    visible: false\nother: 1\n---\n\n# Title\n\nBody";
    expect(html(page)).toBe('<h1 id="title">Title</h1>\n<p>Body</p>');
    const analysis = analyze(page);
    expect(analysis.frontMatter).toEqual({
      description: "About it.",
      icon: "book",
      hidden: true,
      layout: { title: { visible: false } },
    });
    expect(analysis.sections.map(({ text }) => text)).toEqual(["", "Body"]);
    // The title follows the front matter: taking it off the body would take the front matter too.
    expect(analysis.leadingTitle).toBeUndefined();
    expect(analyze("# Title").frontMatter).toBeUndefined();
  });

  it("that is not a YAML mapping stays text", () => {
    expect(html("---\njust a line\n---\n\nBody")).toBe("<p>---\njust a line\n---</p>\n<p>Body</p>");
    expect(analyze("---\njust a line\n---").frontMatter).toBeUndefined();
    expect(html("---\na: [unclosed\n---")).toBe("<p>---\na: [unclosed\n---</p>");
  });

  it("never opens at a rule that no fence closes: the quotes, lists and code after it are read as such", () => {
    expect(html("---\n\n> quoted\n\n- item\n")).toBe(
      "<hr>\n<blockquote>\n<p>quoted</p>\n</blockquote>\n<ul>\n<li>item</li>\n</ul>",
    );
    expect(analyze("---\n\n> ```js\n> a();\n> ```\n").frontMatter).toBeUndefined();
    // An empty front matter, and spaces after its fences, still open one.
    expect(html("--- \n---\n\nBody")).toBe("<p>Body</p>");
  });
});

describe("GitHub's alerts", () => {
  it("are hints of the matching style, their text kept", () => {
    const styles = { NOTE: "info", TIP: "success", IMPORTANT: "info", WARNING: "warning", CAUTION: "danger" };
    for (const [alert, style] of Object.entries(styles))
      expect(html(`> [!${alert}]\n> Mind **this**.`)).toBe(
        `<div class="hint hint-${style}" role="note"><p>Mind <strong>this</strong>.</p></div>`,
      );
    expect(html("> [!note]\n>\n> Paragraph one.\n>\n> Two.")).toBe(
      '<div class="hint hint-info" role="note"><p>Paragraph one.</p><p>Two.</p></div>',
    );
    expect(texts("> [!WARNING]\n> Careful.")).toEqual(["Careful."]);
  });

  it("need the marker on a line of its own, as GitHub does: else the quote stays a quote", () => {
    expect(html("> [!NOTE] not an alert")).toBe("<blockquote>\n<p>[!NOTE] not an alert</p>\n</blockquote>");
    expect(html("> [!UNKNOWN]\n> text")).toContain("<blockquote>");
  });
});

describe("a page written in GitBook", () => {
  it("shows no tag, in its HTML or its search text, and loses none of its text", () => {
    const page = html(gitbookPage);
    const analysis = analyze(gitbookPage);
    const searchText = analysis.sections.map(({ heading, text }) => `${heading}\n${text}`).join("\n");
    expect(page).not.toContain("{%");
    expect(page).not.toContain("%}");
    expect(searchText).not.toContain("{%");
    expect(page).not.toContain("description:");
    expect(searchText).not.toContain("Everything about installing");
    for (const text of [
      "Back up",
      "npm install quire",
      "Works offline.",
      "yarn build",
      "Configure",
      "legacy.md",
      "The walkthrough video",
      "Get the archive.",
      "Extract it.",
      "start();",
      "The printable guide",
      "Included content: ../.gitbook/includes/support.md",
      "Integration block: github-files/github-code-block",
      "API reference: GET /pets https://api.example.com/openapi.yaml",
      "API reference: POST /pets",
      "Creates a pet.",
      "name (body, string, required)",
      "The pet's name",
      "Response 201",
      "Done.",
      "Alerts work as well.",
    ]) {
      expect(page).toContain(text);
      expect(searchText).toContain(text);
    }
    expect(analysis.links).toEqual([
      "configure.md",
      "legacy.md",
      "https://www.youtube.com/watch?v=abc",
      "../.gitbook/assets/guide%20v2.pdf",
      "https://github.com/BugSplat-Git/python-crash-upload/blob/main/upload.py",
      "https://api.example.com/openapi.yaml",
    ]);
    expect(analysis.anchors).toEqual(["installing", "next", "download", "unpack"]);
    expect(analysis.frontMatter).toMatchObject({ description: "Everything about installing.", hidden: true });
    expect(analysis.leadingTitle).toBeUndefined();
  });
});

describe("the sanitizer", () => {
  it("keeps the blocks' classes and role, and still drops scripts, handlers and other classes", () => {
    const page = html(
      '{% hint style="danger" %}\n<script>alert(1)</script>\n\n<img src="x.png" onerror="alert(1)">\n\n<div class="evil" role="button">raw</div>\n\n{% endhint %}',
    );
    expect(page).toContain('<div class="hint hint-danger" role="note">');
    expect(page).not.toContain("<script");
    expect(page).not.toContain("onerror");
    expect(page).not.toContain("evil");
    expect(page).not.toContain('role="button"');
    expect(page).toContain("raw");
    expect(html('<a href="javascript:alert(1)" class="content-ref">x</a>')).not.toContain("javascript:");
  });
});
