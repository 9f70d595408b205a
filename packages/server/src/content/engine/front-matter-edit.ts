import { Document, isMap, parseDocument } from "yaml";
import { FRONT_MATTER } from "./front-matter.js";

/** Changes to a body's front matter: a key set to a value, or removed (`null`). */
export type FrontMatterChanges = Record<string, string | boolean | null>;

/**
 * `body` with `changes` made to the front matter opening it: each key set or removed, the other keys
 * (and their comments) kept, a front matter left empty removed, one added when a key is set. With
 * `keepWritten`, a key the front matter already holds keeps its value (a body's own front matter wins
 * over the fields sent with it, as in GitBook). A head that is no YAML mapping is no front matter (the
 * content engine reads it as text), so a new one goes above it. Runs in the content pool (see
 * `ContentEngine.withFrontMatter`): parsing YAML takes the time its size gives it.
 */
export function editFrontMatter({
  body,
  changes,
  keepWritten,
}: {
  body: string;
  changes: FrontMatterChanges;
  keepWritten: boolean;
}): string {
  const head = FRONT_MATTER.exec(body)?.[0];
  const parsed =
    head === undefined
      ? undefined
      : parseDocument(head.replace(/^---[^\n]*\n/, "").replace(/---[\t ]*(?:\r?\n)?$/, ""));
  const document =
    parsed && (isMap(parsed.contents) || parsed.contents === null) && parsed.errors.length === 0
      ? parsed
      : undefined;
  const rest = document === undefined ? body : body.slice(head?.length ?? 0);
  const yaml = document ?? new Document({});
  for (const [key, value] of Object.entries(changes)) {
    if (keepWritten && yaml.has(key)) continue;
    if (value === null) yaml.delete(key);
    else yaml.set(key, value);
  }
  const written =
    isMap(yaml.contents) && yaml.contents.items.length > 0 ? yaml.toString({ lineWidth: 0 }) : "";
  if (written === "") return document === undefined ? body : rest.replace(/^(?:\r?\n)+/, "");
  return `---\n${written}---\n${document === undefined ? "\n" : ""}${rest}`;
}
