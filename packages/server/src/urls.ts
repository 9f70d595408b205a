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

export function urlsFor(publicUrl: string): Urls {
  const base = publicUrl.replace(/\/+$/, "");
  return {
    api: (path) => `${base}/v1/${path}`,
    app: (path) => `${base}/app/${path}`,
    page: (path) => `${base}/${path}`,
  };
}
