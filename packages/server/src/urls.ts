/** Absolute URLs of resources, in the API and in the application, from the server's public URL. */
export interface Urls {
  api(path: string): string;
  app(path: string): string;
  /** The server's own pages outside the app (signing in, invitations): `path` under the root. */
  page(path: string): string;
}

/** The pages where people sign in and out (under `Urls.page`): the app sends signed-out visitors there. */
export const SIGN_IN_PAGE = "sign-in";
export const SIGN_OUT_PAGE = "sign-out";
/** Where an invitation's link leads: `join/<token>`. */
export const JOIN_PAGE = "join";
/** The pages of a signed-in person's account. */
export const ACCOUNT_PAGES = "account";
/** Where a signed-in person adds their second factors. */
export const SECURITY_PAGE = `${ACCOUNT_PAGES}/security`;

/**
 * `next` when it is a path of the app on this server (where to go once signed in), else the app's
 * home: a sign-in never sends anyone to another site.
 */
export function appDestination(urls: Urls, next: unknown): string {
  const home = new URL(urls.app(""));
  if (typeof next !== "string" || !next.startsWith(home.pathname) || /[\\\s]/.test(next))
    return home.pathname;
  const url = new URL(next, home);
  return url.origin === home.origin && url.pathname.startsWith(home.pathname)
    ? `${url.pathname}${url.search}`
    : home.pathname;
}

export function urlsFor(publicUrl: string): Urls {
  const base = publicUrl.replace(/\/+$/, "");
  return {
    api: (path) => `${base}/v1/${path}`,
    app: (path) => `${base}/app/${path}`,
    page: (path) => `${base}/${path}`,
  };
}
