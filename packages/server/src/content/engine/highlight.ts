import type { Root } from "hast";
import { common, createLowlight } from "lowlight";
import { visit } from "unist-util-visit";

/**
 * Code blocks highlighted when a body is rendered, in the content engine's worker: highlight.js's
 * common languages (through lowlight, which gives hast), tokens as `hljs-*` classes that the site's
 * stylesheet colours (see highlight-style.ts); published pages allow no inline style. Loaded only by
 * a thread that renders a body with a fenced language (see `renderHighlightedHtml`). A block in
 * another language, or longer than `MAX_CODE`, stays plain.
 */
const lowlight = createLowlight(common);

/** The longest code highlighted, in characters: past it, highlighting would cost more than it shows. */
const MAX_CODE = 50_000;

const LANGUAGE = /^language-(.+)$/;

/** The language a `code` element names in its class (`language-ts`), when highlight.js has it. */
function languageOf(classes: unknown): string | undefined {
  if (!Array.isArray(classes)) return undefined;
  for (const name of classes) {
    const language = LANGUAGE.exec(String(name))?.[1]?.toLowerCase();
    if (language && lowlight.registered(language)) return language;
  }
  return undefined;
}

/** Highlights the sanitized HTML's code blocks (`pre > code.language-…`) in place. */
export function highlightCode(tree: Root): void {
  visit(tree, "element", (pre) => {
    if (pre.tagName !== "pre") return;
    const [code] = pre.children;
    if (code?.type !== "element" || code.tagName !== "code" || code.children.length !== 1) return;
    const [text] = code.children;
    const language = languageOf(code.properties.className);
    if (!language || text?.type !== "text" || text.value.length > MAX_CODE) return;
    code.children = lowlight.highlight(language, text.value).children as typeof code.children;
    code.properties.className = [...(code.properties.className as string[]), "hljs"];
    return "skip";
  });
}
