import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import supertest from "supertest";
import { createApp, type QuireApp } from "../app.js";
import { generateSecretKey } from "../auth/secret-key.js";
import { issueToken } from "../auth/tokens.js";
import { directoryBlobStore } from "../blobs/blobs.js";
import type { FileSettings } from "../blobs/settings.js";
import { createOrganization } from "../commands/create-organization.js";
import { type Clock, type IdGenerator, systemClock, timeOrderedIds } from "../context.js";
import { type Db, migrate, openDatabase } from "../db/database.js";
import type { Role, UserTable } from "../db/schema.js";
import { defaultEventDelivery, type EventDeliverySettings } from "../events/delivery-settings.js";
import { createMailer, type Mailer } from "../mail/index.js";
import { addMembership } from "../members/index.js";
import { createFetcher, type NetworkPolicy, publicAddressesOnly } from "../net/fetch.js";
import { type GitLimits, type GitSettings, gitSettingsFrom } from "../net/git.js";
import { createServices, type Services } from "../services.js";
import { urlsFor } from "../urls.js";
import { createUser } from "../users/store.js";
import { openTestDatabase } from "./database.js";
import { buildOrganization, type OrganizationFixture, type Standing } from "./fixtures.js";

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  #now: Date;
  constructor(start = "2026-01-01T00:00:00.000Z") {
    this.#now = new Date(start);
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): void {
    this.#now = new Date(this.#now.getTime() + ms);
  }
}

export interface TestUser {
  user: UserTable;
  token: string;
  /** The Authorization header of this user. */
  auth: { Authorization: string };
}

export interface TestApp {
  app: QuireApp;
  db: Db;
  clock: TestClock;
  ids: IdGenerator;
  /** The app's own key, random: what it signs and encrypts with. */
  secretKey: string;
  request: supertest.Agent;
  /** A user with a token; a member of `organizationId` with `role` when given. */
  user(options?: { organizationId?: string; role?: Role }): Promise<TestUser>;
  /** A new organization whose admin is a new user. */
  organization(): Promise<{ organizationId: string; admin: TestUser }>;
  /** Gives `user` this password, as they would through the API (`changeUserPassword`). */
  setPassword(user: TestUser, password: string): Promise<void>;
  /**
   * Signs `user` in through the sign-in form, with a password given them first, and returns the
   * session's cookie (`quire_session=…`), as a browser would send it back.
   */
  signIn(user: TestUser): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

export interface TestAppOptions {
  /** How large an uploaded file may be; 25 MB by default. */
  maxUploadBytes?: number;
  /** What the server may fetch: public addresses and this machine (tests' own servers) by default. */
  network?: NetworkPolicy;
  /** Git Sync's repositories: a cache in a new temporary directory, under `network`, by default. */
  git?: GitSettings;
  /** How events go out: the server's defaults by default. */
  eventDelivery?: EventDeliverySettings;
  /** Where the server's mail goes: nowhere (a silent log) by default. */
  mailer?: Mailer;
}

/** Uploads of every test app share one directory: blobs are named by their content. */
export const testFileSettings = ({
  maxUploadBytes = 25 * 1024 * 1024,
}: TestAppOptions = {}): FileSettings => ({
  blobs: directoryBlobStore(join(tmpdir(), "quire-test-blobs")),
  maxUploadBytes,
});

/**
 * Services over an empty in-memory SQLite database, unmigrated: enough to build every area's
 * handlers and inspect them without serving a request.
 */
export function inspectionServices(): Services {
  return createServices({
    db: openDatabase({ location: ":memory:" }),
    clock: systemClock,
    ids: timeOrderedIds(),
    urls: urlsFor("http://quire.test"),
    secretKey: generateSecretKey(),
    files: testFileSettings(),
    fetcher: createFetcher(publicAddressesOnly),
    network: publicAddressesOnly,
    git: testGitSettings(publicAddressesOnly),
    eventDelivery: defaultEventDelivery,
    mailer: createMailer({ from: "quire@quire.test" }, pino({ level: "silent" })),
    logger: pino({ level: "silent" }),
  });
}

/** Git Sync's settings for a test: a cache of its own, a minute per operation, 64 MB per fetch. */
export function testGitSettings(
  network: NetworkPolicy,
  limits: Partial<GitLimits & { pollMs: number }> = {},
): GitSettings {
  return gitSettingsFrom(
    {
      // Made by the client on its first fetch: most test apps never make one.
      cacheDirectory: join(tmpdir(), "quire-test-git", randomUUID()),
      timeoutMs: 60_000,
      maxBytes: 64 * 1024 * 1024,
      pollMs: 5 * 60 * 1000,
      ...limits,
    },
    network,
  );
}

/** The real app, with response validation on, over a fresh database of the project's kind. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const { db } = database;
  await migrate(db);
  const clock = new TestClock();
  const ids = timeOrderedIds();
  const services = { clock, ids };
  const secretKey = generateSecretKey();
  const network = options.network ?? { allowedPrivateAddresses: ["127.0.0.1"] };
  const app = createApp({
    db,
    clock,
    ids,
    secretKey,
    validateResponses: true,
    publicUrl: "http://quire.test",
    files: testFileSettings(options),
    network,
    git: options.git ?? testGitSettings(network),
    ...(options.eventDelivery && { eventDelivery: options.eventDelivery }),
    ...(options.mailer && { mailer: options.mailer }),
  });

  const user: TestApp["user"] = async (options = {}) => {
    counter += 1;
    const created = await createUser(db, services, {
      email: `user${counter}@example.com`,
      displayName: `User ${counter}`,
    });
    if (options.organizationId)
      await addMembership(db, services, {
        organizationId: options.organizationId,
        userId: created.id,
        role: options.role ?? "read",
        joinedAt: clock.now().toISOString(),
      });
    const token = await issueToken(db, services, created.id, "test");
    return { user: created, token, auth: { Authorization: `Bearer ${token}` } };
  };

  /** The password each user was given, which a change must name. */
  const passwords = new Map<string, string>();
  const setPassword: TestApp["setPassword"] = async (user, password) => {
    const currentPassword = passwords.get(user.user.id);
    await supertest(app)
      .put("/v1/user/password")
      .set(user.auth)
      .send({ newPassword: password, ...(currentPassword && { currentPassword }) })
      .expect(204);
    passwords.set(user.user.id, password);
  };

  return {
    app,
    db,
    clock,
    ids,
    secretKey,
    request: supertest.agent(app),
    setPassword,
    async signIn(user) {
      const password = passwords.get(user.user.id) ?? `password of ${user.user.id}`;
      if (!passwords.has(user.user.id)) await setPassword(user, password);
      const res = await supertest(app)
        .post("/sign-in")
        .set("Origin", "http://quire.test")
        .type("form")
        .send({ email: user.user.email, password })
        .expect(303);
      const cookie = [res.headers["set-cookie"]].flat().find((c) => c?.startsWith("quire_session="));
      if (!cookie) throw new Error("The sign-in set no session cookie");
      return cookie.split(";")[0] as string;
    },
    user,
    async organization() {
      const admin = await user();
      const organization = await createOrganization(db, services, admin.user.id, { title: `Org ${counter}` });
      return { organizationId: organization.id, admin };
    },
    close: () => database.close(),
  };
}

export interface OrganizationScenario {
  t: TestApp;
  organizationId: string;
  admin: TestUser;
  reader: TestUser;
  /** A user of no organization. */
  outsider: TestUser;
}

/**
 * A fresh app with one organization, its admin, a member with the `read` role, an outsider, and a
 * user of each standing named in `users` (created after them, in the order given).
 */
export async function createOrganizationScenario<
  M extends Record<string, Standing> = Record<never, Standing>,
>({
  users,
  ...options
}: TestAppOptions & { users?: M } = {}): Promise<OrganizationScenario & OrganizationFixture<M>> {
  const t = await createTestApp(options);
  const fixture = await buildOrganization(t, { reader: "read", outsider: "outsider", ...users } as const);
  return { t, ...fixture } as OrganizationScenario & OrganizationFixture<M>;
}
