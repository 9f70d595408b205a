/**
 * The colours of highlighted code (highlight.ts gives its tokens `hljs-*` classes), after GitHub's
 * light and dark themes, as `light-dark()` pairs: the page's `color-scheme` picks one.
 */
const COLOURS: readonly [selectors: string, light: string, dark: string][] = [
  [
    ".hljs-doctag,.hljs-keyword,.hljs-meta .hljs-keyword,.hljs-template-tag,.hljs-template-variable,.hljs-type,.hljs-variable.language_",
    "#cf222e",
    "#ff7b72",
  ],
  [".hljs-title,.hljs-title.class_,.hljs-title.function_", "#8250df", "#d2a8ff"],
  [
    ".hljs-attr,.hljs-attribute,.hljs-literal,.hljs-meta,.hljs-number,.hljs-operator,.hljs-selector-attr,.hljs-selector-class,.hljs-selector-id,.hljs-variable,.hljs-section",
    "#0550ae",
    "#79c0ff",
  ],
  [".hljs-meta .hljs-string,.hljs-regexp,.hljs-string", "#0a3069", "#a5d6ff"],
  [".hljs-built_in,.hljs-symbol,.hljs-bullet", "#953800", "#ffa657"],
  [".hljs-code,.hljs-comment,.hljs-formula", "#59636e", "#9198a1"],
  [".hljs-name,.hljs-quote,.hljs-selector-pseudo,.hljs-selector-tag,.hljs-addition", "#116329", "#7ee787"],
  [".hljs-deletion", "#82071e", "#ffa198"],
];

export const HIGHLIGHT_STYLE = `${COLOURS.map(
  ([selectors, light, dark]) => `${selectors}{color:light-dark(${light},${dark})}`,
).join("\n")}
.hljs-section,.hljs-strong{font-weight:700}.hljs-emphasis{font-style:italic}`;
