// oidc-provider ships no types: what server/dev-campus-idp.ts uses of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  type Grant = {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };
  type GrantClass = {
    new (input: { clientId: string; accountId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  };
  export type KoaContextWithOIDC = {
    oidc: {
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      client?: { clientId: string };
      provider: { Grant: GrantClass };
    };
  };
  type Account = { accountId: string; claims(): Promise<Record<string, unknown>> };
  export type Configuration = {
    clients: Record<string, unknown>[];
    pkce?: { required: () => boolean };
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys: string[] };
    claims?: Record<string, string[]>;
    ttl?: Record<string, number>;
    interactions?: { url: (ctx: KoaContextWithOIDC, interaction: { uid: string }) => string };
    findAccount(ctx: KoaContextWithOIDC, id: string): Promise<Account | undefined>;
    loadExistingGrant?(ctx: KoaContextWithOIDC): Promise<Grant | undefined>;
  };
  type InteractionDetails = {
    uid: string;
    prompt: { name: string };
    params: Record<string, unknown>;
  };
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
