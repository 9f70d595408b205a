/**
 * How deeply a body nests, found by one pass over its text before anything parses it: block quotes
 * (`>` opening a line), lists (markers opening a line, or indentation under one), and link brackets
 * within a paragraph. The parser recurses, and its time grows with the square of these depths: a
 * body that nests deeper than a limit is refused before it reaches a parser.
 */
export function nestingDepth(markdown: string): number {
  let deepest = 0;
  let brackets = 0;
  for (const line of markdown.split("\n")) {
    if (line.trim() === "") {
      brackets = 0;
      continue;
    }
    deepest = Math.max(deepest, openingDepth(line));
    for (let i = 0; i < line.length; i++) {
      const character = line[i];
      if (character === "\\") i++;
      else if (character === "[") deepest = Math.max(deepest, ++brackets);
      else if (character === "]" && brackets > 0) brackets--;
    }
  }
  return deepest;
}

const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)/;

/** Quotes and list markers opening a line, each one level, and the line's indentation (a level per 2 columns). */
function openingDepth(line: string): number {
  let column = 0;
  let i = 0;
  for (; line[i] === " " || line[i] === "\t"; i++) column += line[i] === "\t" ? 4 : 1;
  let depth = Math.floor(column / 2);
  for (;;) {
    const marker = line[i] === ">" ? ">" : LIST_MARKER.exec(line.slice(i, i + 12))?.[0];
    if (marker === undefined) return depth;
    depth++;
    i += marker.length;
    while (line[i] === " " || line[i] === "\t") i++;
  }
}
