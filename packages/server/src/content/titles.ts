import GithubSlugger from "github-slugger";

/**
 * A title cut to `max` characters without splitting an emoji or another character of several code
 * units: for titles Quire makes from others (a copy, a site's or a space's from its organization's).
 */
export function truncateTitle(title: string, max: number): string {
  const characters = [...new Intl.Segmenter().segment(title)].map((s) => s.segment);
  let result = "";
  for (const character of characters) {
    if (result.length + character.length > max) break;
    result += character;
  }
  return result;
}

/**
 * A page's title as plain text: its code spans' backticks dropped (`` `Content-Type` Parser `` reads
 * "Content-Type Parser"), as a heading of that Markdown reads.
 */
export function plainTitle(title: string): string {
  return title.replace(/`([^`]+)`/g, "$1");
}

/**
 * The anchor of a page's title, as the heading it was read from had it (GitHub's slug of its text):
 * links to `#the-title` land on the title a leading heading became.
 */
export function titleAnchor(title: string): string {
  return new GithubSlugger().slug(plainTitle(title).trim());
}
