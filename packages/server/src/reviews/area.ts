import { defineArea } from "../area.js";
import { reviewAccess, reviewHandlers } from "./handlers.js";

/** Operations of `spec/reviews.tsp`: reviews of change requests and the requests for them. */
export const reviewsArea = defineArea({
  name: "reviews",
  access: reviewAccess,
  handlers: reviewHandlers,
});
