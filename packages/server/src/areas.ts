import type { Handler, Handlers, OperationId } from "@quire/api-types";
import { accountsArea } from "./accounts/area.js";
import { appPreviewsArea } from "./app-previews/area.js";
import type { Area, TaskDeps } from "./area.js";
import { notImplemented } from "./area.js";
import { auditArea } from "./audit/area.js";
import type { Caller } from "./auth/caller.js";
import { changeRequestsArea } from "./change-requests/area.js";
import { collectionsArea } from "./collections/area.js";
import { commentsArea } from "./comments/area.js";
import { configFromEnv } from "./config.js";
import { customFieldsArea } from "./custom-fields/area.js";
import { defaultEventDelivery, type EventDeliverySettings } from "./events/delivery-settings.js";
import { filesArea } from "./files/area.js";
import { gitSyncArea } from "./git-sync/area.js";
import { importsArea } from "./imports/area.js";
import { integrationsArea } from "./integrations/area.js";
import { invitesArea } from "./invites/area.js";
import type { AnyTask } from "./jobs/runner.js";
import { linksArea } from "./links/area.js";
import { membersArea } from "./members/area.js";
import { createFetcher, type NetworkPolicy } from "./net/fetch.js";
import { oidcArea } from "./oidc/area.js";
import { openapiSpecsArea } from "./openapi-specs/area.js";
import { organizationsArea } from "./organizations/area.js";
import { pdfArea } from "./pdf/area.js";
import { permissionsArea } from "./permissions/area.js";
import { reviewsArea } from "./reviews/area.js";
import { searchArea } from "./search/area.js";
import type { Services } from "./services.js";
import { sitesArea } from "./sites/area.js";
import { spaceContentArea } from "./space-content/area.js";
import { spacesArea } from "./spaces/area.js";
import { ssoArea } from "./sso/area.js";
import { teamsArea } from "./teams/area.js";
import { translationsArea } from "./translations/area.js";
import { urlsFor } from "./urls.js";
import { usersArea } from "./users/area.js";
import { webhooksArea } from "./webhooks/area.js";

/** Every area of the contract: the one list a new area is added to. */
export const areas = [
  usersArea,
  organizationsArea,
  membersArea,
  teamsArea,
  invitesArea,
  ssoArea,
  oidcArea,
  permissionsArea,
  collectionsArea,
  spacesArea,
  spaceContentArea,
  changeRequestsArea,
  reviewsArea,
  commentsArea,
  linksArea,
  filesArea,
  importsArea,
  pdfArea,
  sitesArea,
  searchArea,
  customFieldsArea,
  openapiSpecsArea,
  translationsArea,
  integrationsArea,
  appPreviewsArea,
  accountsArea,
  gitSyncArea,
  webhooksArea,
  auditArea,
] as const;

type AnyArea = (typeof areas)[number];
type ImplementedBy<A> = A extends Area<infer Implemented, infer _Pending> ? Implemented : never;
type PendingIn<A> = A extends Area<infer _Implemented, infer Pending> ? Pending : never;
type Implemented = ImplementedBy<AnyArea>;
type Pending = PendingIn<AnyArea>;

// Compile-time checks: every operation of the contract is implemented or pending, never both.
const everyOperationIsCovered: [Exclude<OperationId, Implemented | Pending>] extends [never] ? true : false =
  true;
const noneIsBothImplementedAndPending: [Extract<Implemented, Pending>] extends [never] ? true : false = true;

interface AreaOfAnyOperations {
  name: string;
  handlers: (services: Services) => Partial<Handlers<Caller>>;
  pending: readonly OperationId[];
}

/** Operations that still answer 501. */
export const pendingOperations: readonly OperationId[] = areas.flatMap((area) => area.pending);

/** Every task of the server, as `main.ts` runs them: what each area declares in `defineArea({ tasks })`. */
export function serverTasks({
  network,
  eventDelivery = defaultEventDelivery,
  publicUrl = configFromEnv({}).publicUrl,
  ...deps
}: { network: NetworkPolicy; eventDelivery?: EventDeliverySettings; publicUrl?: string } & Omit<
  TaskDeps,
  "fetcher" | "eventDelivery" | "urls"
>): AnyTask[] {
  const fetcher = createFetcher(network);
  const urls = urlsFor(publicUrl);
  return areas.flatMap((area) => area.tasks({ fetcher, eventDelivery, urls, ...deps }));
}

/** Every operation's handler; throws at start-up if two areas claim one operation. */
export function createHandlers(
  services: Services,
  areaList: readonly AreaOfAnyOperations[] = areas,
): Handlers<Caller> {
  const handlers: Partial<Record<OperationId, Handler<OperationId, Caller>>> = {};
  const owner = new Map<OperationId, string>();
  const claim = (id: OperationId, area: string, handler: Handler<OperationId, Caller>) => {
    const previous = owner.get(id);
    if (previous) throw new Error(`The operation ${id} belongs to both ${previous} and ${area}`);
    owner.set(id, area);
    handlers[id] = handler;
  };
  for (const area of areaList) {
    for (const [id, handler] of Object.entries(area.handlers(services)))
      claim(id as OperationId, area.name, handler as Handler<OperationId, Caller>);
    for (const id of area.pending) claim(id, area.name, notImplemented(id));
  }
  return everyOperationIsCovered && noneIsBothImplementedAndPending && (handlers as Handlers<Caller>);
}
