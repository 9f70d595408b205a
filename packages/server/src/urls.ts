/** Absolute URLs of resources, in the API and in the application, from the server's public URL. */
export interface Urls {
  api(path: string): string;
  app(path: string): string;
}

export function urlsFor(publicUrl: string): Urls {
  const base = publicUrl.replace(/\/+$/, "");
  return {
    api: (path) => `${base}/v1/${path}`,
    app: (path) => `${base}/app/${path}`,
  };
}
