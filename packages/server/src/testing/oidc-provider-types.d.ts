// oidc-provider ships no types; this is the part of its API `oidc-provider.ts` (the tests' OpenID provider) uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Account {
    accountId: string;
    claims(): Record<string, unknown> & { sub: string };
  }
  interface Interaction {
    uid: string;
    params: { client_id: string; scope: string };
  }
  class Grant {
    constructor(properties: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: { login: { accountId: string }; consent: { grantId: string } },
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
