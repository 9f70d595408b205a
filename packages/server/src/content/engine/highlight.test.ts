import { describe, expect, it } from "vitest";
import { HIGHLIGHT_STYLE } from "./highlight-style.js";
import { renderHighlightedHtml } from "./markdown.js";

const html = (markdown: string) => renderHighlightedHtml({ markdown });

describe("code blocks as rendered", () => {
  it("are highlighted with classes the stylesheet colours, the code's text unchanged", async () => {
    const rendered = await html("```ts\nconst answer: number = 42; // why\n```\n");
    const classes = [...rendered.matchAll(/<span class="(hljs-[^"]+)"/g)].map((m) => m[1] as string);
    expect(classes).toEqual(expect.arrayContaining(["hljs-keyword", "hljs-number", "hljs-comment"]));
    for (const name of classes) expect(HIGHLIGHT_STYLE).toContain(`.${name}`);
    expect(rendered).toMatch(/^<pre tabindex="0"><code class="language-ts hljs">/);
    expect(rendered.replace(/<[^>]+>/g, "")).toBe("const answer: number = 42; // why\n");
  });

  it("stay plain in a language highlight.js lacks, or without one, and escape what they hold", async () => {
    expect(await html("```nosuchlang\n<b>x</b>\n```\n")).toBe(
      '<pre tabindex="0"><code class="language-nosuchlang">&#x3C;b>x&#x3C;/b>\n</code></pre>',
    );
    expect(await html("```\nplain\n```\n")).toBe(`<pre tabindex="0"><code>plain\n</code></pre>`);
    const markup = await html("```html\n<script>alert(1)</script>\n```\n");
    expect(markup).not.toContain("<script>");
    expect(markup.replace(/<[^>]+>/g, "")).toBe("&#x3C;script>alert(1)&#x3C;/script>\n");
  });
});
