import { describe, expect, it } from "vitest";
import { analyze, markdownWithUrls, renderHtml } from "./markdown.js";

/** An image as GitBook's Git Sync writes it, and the HTML other GitBook pages hold. */
const FIGURE =
  '<figure><img src="../../.gitbook/assets/post_sample_crash-1.png" alt="A crash" width="563"><figcaption></figcaption></figure>';
const PICTURE =
  '<picture><source srcset="../.gitbook/assets/dark.png 2x, ../.gitbook/assets/dark-1x.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/light.png" alt="Diagram"></picture>';

describe("URLs written in a body's HTML", () => {
  it("are listed by the analysis, in document order beside Markdown's", () => {
    const markdown = `Intro [a](a.md).\n\n${FIGURE}\n\nSee <a href="../b/README.md">b</a> and ![c](c.png).\n\n${PICTURE}\n`;
    expect(analyze(markdown).links).toEqual([
      "a.md",
      "../../.gitbook/assets/post_sample_crash-1.png",
      "../b/README.md",
      "c.png",
      "../.gitbook/assets/dark.png",
      "../.gitbook/assets/dark-1x.png",
      "../.gitbook/assets/light.png",
    ]);
  });

  it("are none in code: a fence or a code span of HTML holds no link", () => {
    expect(analyze('```html\n<img src="x.png">\n```\n\n`<a href="y">`\n').links).toEqual([]);
  });

  it("are rendered where the rewrite says, as Markdown's are, descriptors kept", () => {
    const html = renderHtml({
      markdown: `${FIGURE}\n\n${PICTURE}\n\n![md](../.gitbook/assets/light.png)\n`,
      rewrite: {
        "../../.gitbook/assets/post_sample_crash-1.png": "/files/f1/download",
        "../.gitbook/assets/dark.png": "/files/f2/download",
        "../.gitbook/assets/dark-1x.png": "/files/f3/download",
        "../.gitbook/assets/light.png": "/files/f4/download",
      },
    });
    expect(html).toContain(
      '<figure><img src="/files/f1/download" alt="A crash" width="563"><figcaption></figcaption></figure>',
    );
    expect(html).toContain(
      '<source srcset="/files/f2/download 2x, /files/f3/download" media="(prefers-color-scheme: dark)">',
    );
    expect(html).toContain('<img src="/files/f4/download" alt="Diagram">');
    expect(html).toContain('<img src="/files/f4/download" alt="md">');
    expect(html).not.toContain(".gitbook/assets");
  });

  it("that lead nowhere take the element away, its text kept", () => {
    const html = renderHtml({
      markdown: `${FIGURE}\n\nSee <a href="gone.md">the <em>old</em> page</a>.\n\n${PICTURE}\n`,
      rewrite: {
        "../../.gitbook/assets/post_sample_crash-1.png": "",
        "gone.md": "",
        "../.gitbook/assets/dark.png": "",
        "../.gitbook/assets/dark-1x.png": "",
      },
    });
    expect(html).toContain("<figure>A crash<figcaption></figcaption></figure>");
    expect(html).toContain("<p>See the <em>old</em> page.</p>");
    expect(html).not.toContain("<source");
    expect(html).toContain('<img src="../.gitbook/assets/light.png" alt="Diagram">');
  });

  it("match Markdown's URLs however the conversion encodes them", () => {
    const html = renderHtml({
      markdown: "![shot](<../.gitbook/assets/image (1).png>) [é](été.md)\n",
      rewrite: { "../.gitbook/assets/image (1).png": "/files/f5/download", "été.md": "/s/x/ete" },
    });
    expect(html).toContain('<img src="/files/f5/download" alt="shot">');
    expect(html).toContain('<a href="/s/x/ete">é</a>');
  });
});

describe("a body's Markdown with its URLs rewritten", () => {
  it("points each URL where it is written whole, in Markdown, HTML and GitBook's blocks, the rest byte for byte", () => {
    const markdown = [
      "---\ndescription: See ../a.md\n---",
      `Read [a](../a.md), [a's part](../a.md#part) and <a href="../a.md">a</a>.`,
      FIGURE,
      PICTURE,
      '{% content-ref url="../a.md" %}\n[A](../a.md)\n{% endcontent-ref %}',
      "![shot](<../.gitbook/assets/image (1).png>)",
      "`../a.md` and\n\n```\n[a](../a.md)\n```",
      "[ref]: ../a.md",
      "",
    ].join("\n\n");
    const rewritten = markdownWithUrls({
      markdown,
      rewrite: {
        "../a.md": "/s/x/a",
        "../a.md#part": "/s/x/a#part",
        "../../.gitbook/assets/post_sample_crash-1.png": "/files/f1/download",
        "../.gitbook/assets/dark.png": "/files/f2/download",
        "../.gitbook/assets/image (1).png": "/files/f5/download",
        // What leads nowhere stays as written.
        "../.gitbook/assets/light.png": "",
      },
    });
    expect(rewritten).toBe(
      [
        "---\ndescription: See ../a.md\n---",
        `Read [a](/s/x/a), [a's part](/s/x/a#part) and <a href="/s/x/a">a</a>.`,
        FIGURE.replace("../../.gitbook/assets/post_sample_crash-1.png", "/files/f1/download"),
        PICTURE.replace("../.gitbook/assets/dark.png", "/files/f2/download"),
        '{% content-ref url="/s/x/a" %}\n[A](/s/x/a)\n{% endcontent-ref %}',
        "![shot](</files/f5/download>)",
        "`../a.md` and\n\n```\n[a](../a.md)\n```",
        "[ref]: /s/x/a",
        "",
      ].join("\n\n"),
    );
    expect(markdownWithUrls({ markdown, rewrite: {} })).toBe(markdown);
  });
});
