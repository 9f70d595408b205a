import type { Schema } from "@quire/client";
import { describe, expect, it } from "vitest";
import { roleKey, roleOf } from "../../components/RoleSelect.js";
import { inviteLinkUrl, parseEmails, without, withRole } from "./logic.js";

const member = (id: string, role: Schema<"Member">["role"]): Schema<"Member"> => ({
  object: "member",
  id,
  role,
  user: { object: "user", id, displayName: id, urls: { location: `https://quire.test/v1/users/${id}` } },
  disabled: false,
  joinedAt: "2026-01-01T00:00:00Z",
  sso: false,
  spaces: 0,
  teams: 0,
  sites: 0,
});

const pages = () => ({
  pageParams: [undefined, "2"],
  pages: [
    { count: 3, items: [member("ada", "admin"), member("bo", "read")], next: { page: "2" } },
    { count: 3, items: [member("cy", "edit")] },
  ],
});

describe("the People screen's logic", () => {
  it("reads one or several addresses, each once, and tells what is not one", () => {
    expect(parseEmails(" a@x.io, B@y.org;b@Y.org\nnope  c@z.dev ")).toEqual({
      emails: ["a@x.io", "B@y.org", "c@z.dev"],
      invalid: ["nope"],
    });
    expect(parseEmails("  \n ")).toEqual({ emails: [], invalid: [] });
  });

  it("names each role and none, and reads a select's value back", () => {
    expect(roleKey("admin")).toBe("role.admin");
    expect(roleKey(null)).toBe("role.guest");
    expect(roleOf("review")).toBe("review");
    expect(roleOf("")).toBeNull();
  });

  it("links to the server's join page of an invite link", () => {
    expect(inviteLinkUrl("https://docs.example.com", "in k")).toBe(
      "https://docs.example.com/join/link/in%20k",
    );
  });

  it("changes one member's role in the loaded pages, leaving the rest as they were", () => {
    const before = pages();
    const after = withRole(before, "cy", "admin");
    expect(after.pages[1]?.items[0]?.role).toBe("admin");
    expect(after.pages[0]?.items.map((m) => m.role)).toEqual(["admin", "read"]);
    expect(before.pages[1]?.items[0]?.role, "the original is untouched (it is the rollback)").toBe("edit");
  });

  it("removes a member from the loaded pages and counts one less, only if it was there", () => {
    const after = without(pages(), "bo");
    expect(after.pages.flatMap((page) => page.items.map((m) => m.id))).toEqual(["ada", "cy"]);
    expect(after.pages.map((page) => page.count)).toEqual([2, 2]);
    expect(without(pages(), "nobody").pages.map((page) => page.count)).toEqual([3, 3]);
  });
});
