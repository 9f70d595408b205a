/**
 * The public entry of the `reviews` area: what other areas, `commands/` and the top level (`areas.ts`,
 * `app.ts`, `cli`, `bench`) may use. Its other modules (`store.ts`, `tables.ts`, `presenter.ts`, ...) are
 * private: the root `biome.json` fails the lint on an import of one from another area.
 */
export { assertMergeRulesMet, effectiveMergeRules, storedMergeRules } from "./merge-rules.js";
export { insertReview, latestReviews, reviewRequested, upsertReviewRequests } from "./store.js";
export type { ChangeRequestReviewRequestTable, ChangeRequestReviewTable } from "./tables.js";
