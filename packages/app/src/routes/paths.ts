/**
 * Every path the app links to, relative to its router's basename (`/app`, where the server serves it).
 * They are the paths of the API's `urls.app`: what the API links to opens here.
 */
export const APP_BASENAME = "/app";

const part = encodeURIComponent;
const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const defined = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return defined.length === 0 ? path : `${path}?${new URLSearchParams(defined)}`;
};

/** A page's path (`guide/install`) after the path it is under, each segment encoded; nothing when empty. */
const pathTail = (pagePath: string) => (pagePath ? `/${pagePath.split("/").map(part).join("/")}` : "");

export const paths = {
  /** The app's home: the organization last shown, or the first. */
  home: "/",
  /** An organization's home. */
  organization: (organizationId: string) => `/orgs/${part(organizationId)}`,
  /** Search across the organization (`q`: the words). */
  search: (organizationId: string, q?: string) => withQuery(`/orgs/${part(organizationId)}/search`, { q }),
  collection: (collectionId: string) => `/collections/${part(collectionId)}`,
  /** The organization's spaces deleted in the last 7 days, which can be restored. */
  deletedSpaces: (organizationId: string) => `/orgs/${part(organizationId)}/deleted-spaces`,
  /** A space, at one of its pages (its path, as the API gives it) or its first. */
  space: (spaceId: string, pagePath = "") => `/spaces/${part(spaceId)}${pathTail(pagePath)}`,
  /** A change request of a space, at one of its pages (its path in the change request) or its first. */
  changeRequest: (spaceId: string, number: number, pagePath = "") =>
    `/spaces/${part(spaceId)}/change-requests/${number}${pathTail(pagePath)}`,
  /** The organization's people: `members`, `teams` or `invites`. */
  people: (organizationId: string, tab = "members") => `/orgs/${part(organizationId)}/people/${tab}`,
  sites: (organizationId: string) => `/orgs/${part(organizationId)}/sites`,
  site: (organizationId: string, siteId: string, tab = "") =>
    `/orgs/${part(organizationId)}/sites/${part(siteId)}${tab ? `/${tab}` : ""}`,
  /** The organization's settings, one section (`tab`) at a time. */
  organizationSettings: (organizationId: string, tab = "general") =>
    `/orgs/${part(organizationId)}/settings/${tab}`,
  /** The person's own settings (profile, password, second factors, sessions, API tokens). */
  account: (tab = "profile") => `/settings/${tab}`,
  /** Where to sign in, and come back to `next` (the current path) afterwards. */
  signIn: (next: string) => `/sign-in?${new URLSearchParams({ next })}`,
  signOut: "/sign-out",
} as const;
