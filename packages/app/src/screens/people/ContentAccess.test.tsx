import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";

/** The calls the component makes, and the API's answers to them (the real server is the browser test's). */
const calls = vi.hoisted(() => {
  const made: { method: string; path: string; body: unknown }[] = [];
  const user = {
    object: "user",
    id: "ada",
    displayName: "Ada",
    email: "ada@example.com",
    urls: { location: "x" },
  };
  const team = {
    object: "team",
    id: "t1",
    title: "Writers",
    members: 1,
    spaces: 0,
    createdAt: "2026-01-01T00:00:00Z",
    permissions: { admin: true, view: true },
  };
  const answers: Record<string, unknown> = {
    "/v1/spaces/s1/permissions/users": { count: 1, items: [{ permission: "edit", user }] },
    "/v1/spaces/s1/permissions/teams": { count: 0, items: [] },
    "/v1/collections/c1/permissions/users": { count: 0, items: [] },
    "/v1/collections/c1/permissions/teams": { count: 1, items: [{ permission: "read", team }] },
    "/v1/orgs/o1/teams": { count: 1, items: [team] },
  };
  globalThis.fetch = async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(input);
    const path = new URL(request.url).pathname;
    const text = await request.text();
    made.push({ method: request.method, path, body: text ? JSON.parse(text) : undefined });
    const answer = request.method === "GET" ? answers[path] : undefined;
    return answer === undefined
      ? new Response(null, { status: 204 })
      : new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
  };
  return made;
});

const { ContentAccess } = await import("./ContentAccess.js");

Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true });

async function rendered(kind: "space" | "collection", id: string) {
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () =>
    root.render(
      <QueryClientProvider client={queryClient}>
        <ContentAccess kind={kind} id={id} organizationId="o1" />
      </QueryClientProvider>,
    ),
  );
  return container;
}

/** Lets the component's calls answer and the screen follow. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

const button = (container: HTMLElement, name: string) => {
  const found = [...container.querySelectorAll("button")].find(
    (element) => (element.getAttribute("aria-label") ?? element.textContent) === name,
  );
  if (!found) throw new Error(`No button ${name}`);
  return found;
};

const labelled = (container: HTMLElement, name: string) => {
  const label = [...container.querySelectorAll("label")].find((element) => element.textContent === name);
  const control = label && container.querySelector(`#${CSS.escape(label.htmlFor)}`);
  if (!(control instanceof HTMLSelectElement)) throw new Error(`No select ${name}`);
  return control;
};

const choose = async (select: HTMLSelectElement, value: string) => {
  await act(async () => {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await settle();
};

const writes = () =>
  calls.filter((call) => call.method !== "GET").map(({ method, path, body }) => ({ method, path, body }));

afterEach(() => {
  calls.length = 0;
  document.body.replaceChildren();
});

describe("ContentAccess (Share)", () => {
  it("lists who has which role on a space, and changes, removes and gives roles through its operations", async () => {
    const container = await rendered("space", "s1");
    await act(async () => button(container, "Share").click());
    await settle();
    expect(container.textContent).toContain("ada@example.com");
    expect(container.textContent).toContain("No team has a role here.");

    await choose(labelled(container, "Role of Ada"), "comment");
    await act(async () => button(container, "Remove the role of Ada").click());
    await settle();
    await choose(labelled(container, "Role to give"), "review");
    await act(async () => button(container, "Give the team the role").click());
    await settle();

    expect(writes()).toEqual([
      { method: "PATCH", path: "/v1/spaces/s1/permissions/users/ada", body: { role: "comment" } },
      { method: "PATCH", path: "/v1/spaces/s1/permissions/users/ada", body: { role: null } },
      { method: "POST", path: "/v1/spaces/s1/permissions", body: { role: "review", teams: ["t1"] } },
    ]);
  });

  it("does the same on a collection, through the collection's operations", async () => {
    const container = await rendered("collection", "c1");
    await act(async () => button(container, "Share").click());
    await settle();
    expect(container.textContent).toContain("Writers");
    await choose(labelled(container, "Role of the team Writers"), "admin");
    expect(writes()).toEqual([
      { method: "PATCH", path: "/v1/collections/c1/permissions/teams/t1", body: { role: "admin" } },
    ]);
  });
});
