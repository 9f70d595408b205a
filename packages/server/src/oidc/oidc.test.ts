import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOrganization } from "../testing/fixtures.js";
import { createTestApp, type TestApp } from "../testing/harness.js";
import { openClientSecret } from "./client-secret.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function scenario() {
  const s = await buildOrganization(t, { reader: "read", outsider: "outsider" });
  return { ...s, oidcUrl: `/v1/orgs/${s.organizationId}/oidc-providers` };
}

const SECRET = "s3cr3t-never-shown";
const keycloak = {
  label: "Keycloak",
  issuer: "https://id.example.com/realms/quire",
  clientId: "quire",
  clientSecret: SECRET,
};

async function storedRow(id: string) {
  return t.db.selectFrom("oidc_providers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

describe("OpenID Connect providers", () => {
  it("creates, reads, updates and deletes a provider; its secret is stored encrypted and never shown", async () => {
    const s = await scenario();
    const res = await t.request.post(s.oidcUrl).set(s.admin.auth).send(keycloak).expect(201);
    const id = res.body.id as string;
    const base = `http://quire.test/sso/oidc/${id}`;
    expect(res.body).toEqual({
      object: "oidc-provider",
      id,
      label: "Keycloak",
      issuer: keycloak.issuer,
      clientId: "quire",
      clientSecretSet: true,
      scopes: ["openid", "email", "profile"],
      defaultRole: "read",
      createdAt: t.clock.now().toISOString(),
      service: { redirectURL: `${base}/callback`, startURL: `${base}/start` },
      urls: { location: `http://quire.test${s.oidcUrl}/${id}` },
    });
    expect(res.headers.location).toBe(res.body.urls.location);
    const stored = await storedRow(id);
    expect(stored.client_secret).not.toContain(SECRET);
    expect(openClientSecret(t.secretKey, stored)).toBe(SECRET);
    const read = await t.request.get(`${s.oidcUrl}/${id}`).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(res.body);

    const team = await t.request
      .put(`/v1/orgs/${s.organizationId}/teams`)
      .set(s.admin.auth)
      .send({ title: "SSO" })
      .expect(201);
    const changes = {
      label: "Authentik",
      issuer: "https://auth.example.com/application/o/quire/",
      clientId: "quire-2",
      clientSecret: "another-secret",
      scopes: ["openid", "email"],
      defaultTeam: team.body.id,
      defaultRole: null,
    };
    const updated = await t.request.patch(`${s.oidcUrl}/${id}`).set(s.admin.auth).send(changes).expect(200);
    const { clientSecret: _secret, defaultTeam: _team, ...shown } = changes;
    expect(updated.body).toMatchObject({
      ...shown,
      clientSecretSet: true,
      defaultTeam: { id: team.body.id },
    });
    expect(JSON.stringify(updated.body)).not.toContain("another-secret");
    expect(openClientSecret(t.secretKey, await storedRow(id))).toBe("another-secret");
    const reread = await t.request.get(`${s.oidcUrl}/${id}`).set(s.admin.auth).expect(200);
    expect(reread.body).toEqual(updated.body);

    // null removes the secret (a public client); an empty change changes nothing.
    const cleared = await t.request
      .patch(`${s.oidcUrl}/${id}`)
      .set(s.admin.auth)
      .send({ clientSecret: null })
      .expect(200);
    expect(cleared.body.clientSecretSet).toBe(false);
    expect((await storedRow(id)).client_secret).toBeNull();
    const same = await t.request.patch(`${s.oidcUrl}/${id}`).set(s.admin.auth).send({}).expect(200);
    expect(same.body).toEqual(cleared.body);
    expect((await t.request.get(`${s.oidcUrl}/${id}`).set(s.admin.auth).expect(200)).body).toEqual(
      cleared.body,
    );

    // Deleting the default team clears it; deleting the provider removes it.
    await t.request
      .delete(`/v1/orgs/${s.organizationId}/teams/${team.body.id}`)
      .set(s.admin.auth)
      .expect(204);
    const noTeam = await t.request.get(`${s.oidcUrl}/${id}`).set(s.admin.auth).expect(200);
    expect(noTeam.body.defaultTeam).toBeUndefined();
    await t.request.delete(`${s.oidcUrl}/${id}`).set(s.admin.auth).expect(204);
    await t.request.get(`${s.oidcUrl}/${id}`).set(s.admin.auth).expect(404);
    const list = await t.request.get(s.oidcUrl).set(s.admin.auth).expect(200);
    expect(list.body).toEqual({ count: 0, items: [] });

    // Each change is in the organization's audit log, by whom, the secret's value never.
    const audit = await t.request
      .get(`/v1/orgs/${s.organizationId}/audit-events`)
      .set(s.admin.auth)
      .expect(200);
    const entries = (audit.body.items as { action: string; actor: { id: string }; target: object }[])
      .filter((entry) => entry.action.startsWith("oidc_provider."))
      .map(({ action, actor, target }) => ({ action, actor: actor.id, target }));
    expect([...new Set(entries.map((entry) => entry.action))].sort()).toEqual([
      "oidc_provider.created",
      "oidc_provider.deleted",
      "oidc_provider.updated",
    ]);
    for (const entry of entries)
      expect(entry).toMatchObject({ actor: s.admin.user.id, target: { type: "oidc-provider", id } });
    expect(JSON.stringify(audit.body)).not.toContain("another-secret");
  });

  it("lists providers oldest first, by pages, none showing a secret", async () => {
    const s = await scenario();
    const first = await t.request.post(s.oidcUrl).set(s.admin.auth).send(keycloak).expect(201);
    t.clock.advance(1000);
    const second = await t.request
      .post(s.oidcUrl)
      .set(s.admin.auth)
      .send({ label: "Google", issuer: "https://accounts.google.com", clientId: "google" })
      .expect(201);
    expect(second.body.clientSecretSet).toBe(false);
    const list = await t.request.get(`${s.oidcUrl}?limit=1`).set(s.admin.auth).expect(200);
    expect(list.body.count).toBe(2);
    expect(list.body.items).toEqual([first.body]);
    const next = await t.request
      .get(`${s.oidcUrl}?limit=1&page=${list.body.next.page}`)
      .set(s.admin.auth)
      .expect(200);
    expect(next.body.items).toEqual([second.body]);
    expect(JSON.stringify([list.body, next.body])).not.toContain(SECRET);
  });

  it("answers 400 for a bad issuer, scopes or team, and changes nothing", async () => {
    const s = await scenario();
    const other = await scenario();
    const otherTeam = await t.request
      .put(`/v1/orgs/${other.organizationId}/teams`)
      .set(other.admin.auth)
      .send({ title: "Theirs" })
      .expect(201);
    for (const bad of [
      { issuer: "not a url" },
      { issuer: "ftp://id.example.com" },
      { issuer: "https://id.example.com/?realm=quire" },
      { issuer: "https://id.example.com/#realm" },
      { issuer: "https://user:pass@id.example.com" },
      { scopes: ["email", "profile"] },
      { scopes: ["openid", "two words"] },
      { defaultTeam: "unknown" },
      { defaultTeam: otherTeam.body.id },
      { label: "" },
      { clientId: "" },
    ])
      await t.request
        .post(s.oidcUrl)
        .set(s.admin.auth)
        .send({ ...keycloak, ...bad })
        .expect(400);
    await t.request.post(s.oidcUrl).set(s.admin.auth).send({ label: "No issuer", clientId: "x" }).expect(400);
    const created = await t.request.post(s.oidcUrl).set(s.admin.auth).send(keycloak).expect(201);
    const url = `${s.oidcUrl}/${created.body.id}`;
    await t.request.patch(url).set(s.admin.auth).send({ issuer: "mailto:x@example.com" }).expect(400);
    await t.request.patch(url).set(s.admin.auth).send({ defaultTeam: otherTeam.body.id }).expect(400);
    await t.request
      .patch(url)
      .set(s.admin.auth)
      .send({ scopes: ["profile"] })
      .expect(400);
    const read = await t.request.get(url).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(created.body);
    const count = await t.request.get(s.oidcUrl).set(s.admin.auth).expect(200);
    expect(count.body.count).toBe(1);
  });

  it("answers 401 without a token, 403 to a non-admin, 404 to another organization", async () => {
    const s = await scenario();
    const other = await scenario();
    const created = await t.request.post(s.oidcUrl).set(s.admin.auth).send(keycloak).expect(201);
    const url = `${s.oidcUrl}/${created.body.id}`;

    await t.request.get(s.oidcUrl).expect(401);
    await t.request.post(s.oidcUrl).send(keycloak).expect(401);
    await t.request.get(url).expect(401);
    await t.request.patch(url).send({ label: "Mine" }).expect(401);
    await t.request.delete(url).expect(401);

    await t.request.get(s.oidcUrl).set(s.reader.auth).expect(403);
    await t.request.post(s.oidcUrl).set(s.reader.auth).send(keycloak).expect(403);
    await t.request.get(url).set(s.reader.auth).expect(403);
    await t.request.patch(url).set(s.reader.auth).send({ label: "Mine" }).expect(403);
    await t.request.delete(url).set(s.reader.auth).expect(403);

    await t.request.get(s.oidcUrl).set(s.outsider.auth).expect(404);
    await t.request.post(s.oidcUrl).set(s.outsider.auth).send(keycloak).expect(404);
    await t.request.get(url).set(other.admin.auth).expect(404);
    await t.request.patch(url).set(other.admin.auth).send({ label: "Mine" }).expect(404);
    await t.request.delete(url).set(other.admin.auth).expect(404);
    // The provider under the other organization's path, where its admin may look: not there either.
    await t.request.get(`${other.oidcUrl}/${created.body.id}`).set(other.admin.auth).expect(404);
    await t.request.delete(`${other.oidcUrl}/${created.body.id}`).set(other.admin.auth).expect(404);

    const read = await t.request.get(url).set(s.admin.auth).expect(200);
    expect(read.body).toEqual(created.body);
  });
});
