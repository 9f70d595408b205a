/**
 * The public entry of the `comments` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { commentRules, type MemberParent, parentOf as commentParentOf } from "./access.js";
export { documentMarkdown, postComment } from "./post.js";
export { type CommentRow, commentersOf, listComments, listReplies } from "./store.js";
export { presentedComments } from "./views.js";
