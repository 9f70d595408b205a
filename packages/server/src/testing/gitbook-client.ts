import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { GitBookAPI } from "@gitbook/api";

/** An answer of GitBook's client, typed by the test with the contract's schema. */
export type GitBookAnswer<T> = Promise<{ data: T }>;

/**
 * The app served on a loopback port of its own for GitBook's official client (`@gitbook/api`):
 * `client(token)` is one as that token's holder, typed with `Api`, what the test calls of it. The
 * package's index.d.ts re-exports `./client` without an extension, which NodeNext does not resolve:
 * the compiler sees a class without operations.
 */
export async function serveToGitBookClient(app: RequestListener) {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    client: <Api>(authToken: string) => new GitBookAPI({ endpoint, authToken }) as unknown as Api,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
