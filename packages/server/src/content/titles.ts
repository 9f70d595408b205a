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
