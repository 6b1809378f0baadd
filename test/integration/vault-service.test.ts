// The daemon's vault service over a real vault on disk: what the worker's
// fill side may list and receive for a page URL, and that every secret it
// hands out or takes in reaches the redactor first.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ErrorCode } from "../../shared/protocol/errors.js";
import { REDACTED } from "../../daemon/vault/redactor.js";
import { VaultService } from "../../daemon/vault/service.js";

let root: string;
let service: VaultService;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "bw-vault-service-"));
  service = new VaultService({ home: join(root, "home") });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: "BwError", code });
}

describe("vault service: the worker's fill side", () => {
  it("lists and fills only what matches the page URL", async () => {
    const local = await service.add({ site: "http://127.0.0.1:8080", username: "alice", password: "pw-local-1" });
    await service.add({ site: "https://example.com", username: "bob", password: "pw-example-1" });

    expect((await service.listForSite("http://127.0.0.1:8080/login?next=/")).map((e) => e.id)).toEqual([local.id]);
    expect(await service.listForSite("http://localhost:8080/login")).toEqual([]);
    expect(await service.listForSite("about:blank")).toEqual([]);
    expect((await service.listForSite("https://www.example.com/")).map((e) => e.username)).toEqual(["bob"]);
    expect(await service.listForSite("http://example.com/")).toEqual([]);

    expect(await service.fill("http://127.0.0.1:8080/login", {})).toEqual({
      id: local.id, site: "http://127.0.0.1:8080", username: "alice", provisional: false, password: "pw-local-1",
    });
    await expectCode(service.fill("http://localhost:8080/login", {}), "VAULT_NOT_FOUND");
    await expectCode(service.fill("http://localhost:8080/login", { id: local.id }), "VAULT_NOT_FOUND");
    await expectCode(service.fill("http://example.com/login", {}), "VAULT_NOT_FOUND");
    await expectCode(service.fill("about:blank", { id: local.id }), "INVALID_ARGUMENT");
  });

  it("asks for an id or username when several logins match, and honours the username", async () => {
    const a = await service.add({ site: "https://example.com", username: "a", password: "pw-a-123" });
    const b = await service.add({ site: "https://example.com", username: "b", password: "pw-b-123" });
    await expect(service.fill("https://example.com/", {})).rejects.toMatchObject({ code: "INVALID_ARGUMENT", details: { ids: expect.arrayContaining([a.id, b.id]) } });
    expect((await service.fill("https://example.com/", { username: "b" })).password).toBe("pw-b-123");
    await expectCode(service.fill("https://example.com/", { id: a.id, username: "b" }), "VAULT_NOT_FOUND");
    await expectCode(service.fill("https://example.com/", { username: "c" }), "VAULT_NOT_FOUND");
  });

  it("generates for the page's origin, fills it by id, commits and discards by exact id", async () => {
    const generated = await service.generate("http://127.0.0.1:8080/signup?x=1", { username: "new-user" });
    expect(generated).toMatchObject({ site: "http://127.0.0.1:8080", username: "new-user", provisional: true });
    expect(JSON.stringify(generated)).not.toMatch(/password/);
    expect((await service.listForSite("http://127.0.0.1:8080/")).map((e) => [e.id, e.provisional])).toEqual([[generated.id, true]]);
    // A provisional entry is filled by its id, never chosen on its own.
    await expectCode(service.fill("http://127.0.0.1:8080/", {}), "VAULT_NOT_FOUND");
    const secret = await service.fill("http://127.0.0.1:8080/", { id: generated.id });
    expect(secret.provisional).toBe(true);

    // A fresh service (a restarted daemon) commits by id, with no page at all.
    const restarted = new VaultService({ home: join(root, "home") });
    expect(await restarted.commit(generated.id)).toMatchObject({ id: generated.id, provisional: false });
    expect((await restarted.listForSite("http://127.0.0.1:8080/"))[0]).toMatchObject({ id: generated.id, provisional: false });
    await expectCode(restarted.discard(generated.id), "VAULT_NOT_FOUND");

    const other = await restarted.generate("https://example.com/", {});
    await restarted.discard(other.id);
    expect(await restarted.list()).toHaveLength(1);
    await expectCode(service.generate("about:blank", {}), "INVALID_ARGUMENT");
  });
});

describe("vault service: redaction", () => {
  it("feeds every secret it takes in or hands out to the redactor", async () => {
    const added = await service.add({ site: "https://example.com", username: "u", password: "pw-added-1" });
    const generated = await service.generate("https://example.com/", {});
    const { password: generatedPassword } = await service.fill("https://example.com/", { id: generated.id });

    const restarted = new VaultService({ home: join(root, "home") });
    expect(restarted.redactor.size).toBe(0);
    await restarted.show(added.id);
    expect(restarted.filterLogLine("typed pw-added-1")).toBe(`typed ${REDACTED}`);

    const { outcome, snippet } = service.filterOutput(
      { ok: true, result: [`pw-added-1`, generatedPassword], console: [], pages: [], artifacts: [], warnings: [] },
      "return 'pw-added-1'",
    );
    expect(outcome.result).toEqual([REDACTED, REDACTED]);
    expect(snippet).toBe(`return '${REDACTED}'`);
  });

  it("refuses to hand out a secret it could not redact, and withholds output from then on", async () => {
    const bounded = new VaultService({ home: join(root, "home"), maxSecrets: 1 });
    const a = await bounded.add({ site: "https://example.com", username: "a", password: "pw-first-1" });
    await service.add({ site: "https://example.com", username: "b", password: "pw-second-1" });
    await expectCode(bounded.fill("https://example.com/", { username: "b" }), "LIMIT_EXCEEDED");
    expect(bounded.filterOutput({ ok: true, result: "pw-first-1", console: [], pages: [], artifacts: [], warnings: [] }, "1").outcome)
      .toMatchObject({ ok: false, error: { code: "LIMIT_EXCEEDED" } });
    expect(a.id).toBeTruthy();
  });
});
