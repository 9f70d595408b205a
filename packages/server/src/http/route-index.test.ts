import { describe, expect, it } from "vitest";
import { RouteIndex } from "./route-index.js";

describe("RouteIndex", () => {
  const index = new RouteIndex<string>();
  index.add("/v1/spaces/{spaceId}", "space");
  index.add("/v1/spaces/{spaceId}/comments/{commentId}", "comment");
  index.add("/v1/orgs/{organizationId}/spaces", "org spaces");
  index.add("/v1/orgs/{organizationId}/members/{userId}", "member");
  index.add("/v1/orgs/{organizationId}/members/{userId}/sso", "member sso");
  index.add("/v1/user", "user");

  it("finds templates and the values of their parameters", () => {
    expect(index.find("/v1/spaces/abc")).toEqual({ value: "space", parameters: ["abc"] });
    expect(index.find("/v1/spaces/abc/comments/c1")).toEqual({ value: "comment", parameters: ["abc", "c1"] });
    expect(index.find("/v1/orgs/o1/members/u1/sso")?.value).toBe("member sso");
  });

  it("prefers a literal segment and backtracks to a parameter", () => {
    const literalFirst = new RouteIndex<string>();
    literalFirst.add("/v1/spaces/{spaceId}/links", "links");
    literalFirst.add("/v1/spaces/archived/{what}", "archived");
    expect(literalFirst.find("/v1/spaces/archived/x")).toEqual({ value: "archived", parameters: ["x"] });
    expect(literalFirst.find("/v1/spaces/archived/links")?.value).toBe("archived");
    expect(literalFirst.find("/v1/spaces/other/links")).toEqual({ value: "links", parameters: ["other"] });
  });

  it("ignores a trailing slash and misses unknown or partial paths", () => {
    expect(index.find("/v1/user/")?.value).toBe("user");
    expect(index.find("/v1/spaces")).toBeUndefined();
    expect(index.find("/v1/spaces//comments/x")).toBeUndefined();
    expect(index.find("/v2/user")).toBeUndefined();
  });

  it("gives a rest-of-path parameter every remaining segment, after literals and parameters", () => {
    const paths = new RouteIndex<string>();
    paths.add("/v1/spaces/{spaceId}/content/path/{pagePath}", "by path", { restOfPath: true });
    paths.add("/v1/spaces/{spaceId}/content/path/{pagePath}/x", "one deeper");
    paths.add("/v1/spaces/{spaceId}/content/path/top", "literal");
    expect(paths.find("/v1/spaces/s1/content/path/guide/install/linux")).toEqual({
      value: "by path",
      parameters: ["s1", "guide/install/linux"],
    });
    expect(paths.find("/v1/spaces/s1/content/path/faq")).toEqual({
      value: "by path",
      parameters: ["s1", "faq"],
    });
    expect(paths.find("/v1/spaces/s1/content/path/guide%2Finstall/")?.parameters).toEqual([
      "s1",
      "guide%2Finstall",
    ]);
    expect(paths.find("/v1/spaces/s1/content/path/top")?.value).toBe("literal");
    expect(paths.find("/v1/spaces/s1/content/path/a/x")).toEqual({
      value: "one deeper",
      parameters: ["s1", "a"],
    });
    expect(paths.find("/v1/spaces/s1/content/path")).toBeUndefined();
    expect(() => paths.add("/v1/spaces/{spaceId}/content", "no parameter", { restOfPath: true })).toThrow();
  });
});
