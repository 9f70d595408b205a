/**
 * Every path the app links to: the single-page app lives at /app/ (its router's basename is `/app`);
 * the server-rendered previews under /app/… are reached by full page loads.
 */
export const APP_BASENAME = "/app";

export const paths = {
  /** The home of the single-page app, for an organization (`?org=`) or the first one. */
  home: (organizationId?: string) =>
    organizationId === undefined ? "/" : `/?${new URLSearchParams({ org: organizationId })}`,
  /** The server-rendered search preview of an organization (a full page load). */
  searchPreview: (organizationId: string) =>
    `${APP_BASENAME}/orgs/${encodeURIComponent(organizationId)}/search`,
  /** Where to sign in, and come back to `next` (the current path) afterwards. */
  signIn: (next: string) => `/sign-in?${new URLSearchParams({ next })}`,
  signOut: "/sign-out",
} as const;
