/**
 * A body that opens with front matter: a `---` line, then a closing `---` line (spaces after either
 * allowed, as remark-frontmatter allows them). A regular expression of its own module, so that the
 * main thread reads it without loading the parsers.
 */
export const FRONT_MATTER = /^---[\t ]*\r?\n(?:[\s\S]*?\r?\n)?---[\t ]*(?:\r?\n|$)/;
