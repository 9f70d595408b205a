import { QuireApiError } from "@quire/client";
import { describe, expect, it } from "vitest";
import { errorMessage } from "./errors.js";

describe("errorMessage", () => {
  it("tells a known type in words, and another with the server's message, never as JSON", () => {
    expect(errorMessage({ error: { code: 404, type: "not_found", message: "No such space" } })).toBe(
      "There is nothing to show here.",
    );
    const conflict = { error: { code: 409, type: "conflict", message: "The title is taken" } };
    expect(errorMessage(conflict)).toBe("The server answered with an error (conflict): The title is taken");
    expect(errorMessage(new QuireApiError(409, conflict as never))).not.toContain("{");
  });

  it("tells a failed network apart", () => {
    expect(errorMessage(new TypeError("Failed to fetch"))).toMatch(/could not be reached/);
  });
});
