const SLUG_MAX = 100;

/**
 * A page's slug from its title: decomposed, accents dropped, lower case, every run of other characters
 * than a-z and 0-9 made one `-`, trimmed, at most 100 characters; `untitled` when nothing is left.
 */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
  return slug || "untitled";
}

/** `slug`, or `slug-2`, `slug-3`… (cut to fit 100 characters), whichever no sibling has taken. */
export function uniqueSlug(slug: string, taken: (candidate: string) => boolean): string {
  if (!taken(slug)) return slug;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = slug.slice(0, SLUG_MAX - suffix.length) + suffix;
    if (!taken(candidate)) return candidate;
  }
}
