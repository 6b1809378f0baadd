import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, stat, symlink, truncate, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ErrorCode } from "../../shared/protocol/errors.js";
import { DIR_MODE, FILE_MODE } from "../../daemon/vault/atomic-file.js";
import { DEFAULT_PASSWORD_LENGTH, PASSWORD_CLASSES } from "../../daemon/vault/password.js";
import { REDACTED, Redactor } from "../../daemon/vault/redactor.js";
import { decodeVault, encodeVault, VAULT_KEY_BYTES } from "../../daemon/vault/vault-format.js";
import { openVault, type OpenVaultOptions, type Vault } from "../../daemon/vault/vault.js";

const REPO = resolve(import.meta.dirname, "../..");

let home: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  home = join(await mkdtemp(join(tmpdir(), "bw-vault-")), "home");
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await rm(resolve(home, ".."), { recursive: true, force: true });
});

function vault(extra: Partial<OpenVaultOptions> = {}): Vault {
  let t = Date.parse("2030-01-01T00:00:00.000Z");
  return openVault({ home, now: () => (t += 1000), ...extra });
}

async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: "BwError", code });
}

const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe("vault store", () => {
  it("creates the vault dir 0700 and every file 0600, including the held lock", async () => {
    let lockMode = -1;
    const v = vault({ beforeCommit: async () => void (lockMode = await mode(v.paths.lock)) });
    await v.add({ site: "https://example.com", username: "alice", password: "pw-1" });
    expect(await mode(home)).toBe(DIR_MODE);
    expect(await mode(v.paths.dir)).toBe(DIR_MODE);
    expect(lockMode).toBe(DIR_MODE);
    for (const file of [v.paths.key, v.paths.enc, v.paths.audit]) expect(await mode(file)).toBe(FILE_MODE);
    expect((await readFile(v.paths.key)).length).toBe(VAULT_KEY_BYTES);
    expect((await readdir(v.paths.dir)).sort()).toEqual(["audit.jsonl", "vault.enc", "vault.key"]);
  });

  it("reads nothing into existence: listing a fresh home creates no files", async () => {
    expect(await vault().list()).toEqual([]);
    await expect(stat(home)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("round-trips entries across instances, metadata without passwords", async () => {
    const a = vault();
    const added = await a.add({ site: "https://accounts.example.com/login", username: "alice", password: "s3cr3t!", label: "work" });
    expect(added).toEqual({
      id: added.id,
      site: "https://accounts.example.com",
      username: "alice",
      label: "work",
      provisional: false,
      createdAt: "2030-01-01T00:00:01.000Z",
      updatedAt: "2030-01-01T00:00:01.000Z",
    });
    const b = vault();
    expect(await b.list()).toEqual([added]);
    expect(JSON.stringify(await b.list())).not.toContain("s3cr3t!");
    expect((await b.show(added.id)).password).toBe("s3cr3t!");

    const updated = await b.update(added.id, { password: "n3w!", label: null });
    expect(updated.label).toBeUndefined();
    expect(updated.updatedAt > added.updatedAt).toBe(true);
    expect((await a.show(added.id)).password).toBe("n3w!");
    await expectCode(a.add({ site: "https://accounts.example.com", username: "alice", password: "x" }), "INVALID_ARGUMENT");

    expect(await a.remove(added.id)).toMatchObject({ id: added.id });
    expect(await b.list()).toEqual([]);
    await expectCode(b.show(added.id), "VAULT_NOT_FOUND");
    await expectCode(b.remove(added.id), "VAULT_NOT_FOUND");
  });

  it("stores only ciphertext and uses a fresh IV per write", async () => {
    const v = vault();
    const { id } = await v.add({ site: "https://example.com", username: "alice-user", password: "canary-pw-0451" });
    const first = await readFile(v.paths.enc);
    expect(first.includes("canary-pw-0451")).toBe(false);
    expect(first.includes("alice-user")).toBe(false);
    const key = await readFile(v.paths.key);
    const table = decodeVault(first, key);
    expect(table.entries.map((e) => e.id)).toEqual([id]);
    const again = encodeVault(table, key);
    expect(again.equals(encodeVault(table, key))).toBe(false);
    expect(decodeVault(again, key)).toEqual(table);
  });

  it("validates input without echoing it", async () => {
    const v = vault();
    await expectCode(v.add({ site: "not a site", username: "u", password: "p" }), "INVALID_ARGUMENT");
    await expectCode(v.add({ site: "https://example.com", username: "u", password: "" }), "INVALID_ARGUMENT");
    await expectCode(v.show("../etc/passwd"), "INVALID_ARGUMENT");
    await expectCode(v.generate({ site: "https://example.com", length: 8 }), "INVALID_ARGUMENT");
    await expectCode(v.audit({ limit: 0 }), "INVALID_ARGUMENT");
  });
});

describe("damaged vault files are reported and left untouched", () => {
  async function seeded(): Promise<{ v: Vault; bytes: Buffer }> {
    const v = vault();
    await v.add({ site: "https://example.com", username: "alice", password: "pw-1" });
    await v.add({ site: "https://example.org", username: "bob", password: "pw-2" });
    return { v, bytes: await readFile(v.paths.enc) };
  }

  it.each([0, 7, 9, 20, 40, -1])("one flipped byte at %i gives VAULT_CORRUPT", async (position) => {
    const { v, bytes } = await seeded();
    const tampered = Buffer.from(bytes);
    const index = position < 0 ? tampered.length + position : position;
    tampered[index] = (tampered[index] ?? 0) ^ 0x01;
    await writeFile(v.paths.enc, tampered);
    await expectCode(v.list(), "VAULT_CORRUPT");
    await expectCode(v.add({ site: "https://example.net", username: "c", password: "p" }), "VAULT_CORRUPT");
    await expectCode(v.generate({ site: "https://example.net" }), "VAULT_CORRUPT");
    expect((await readFile(v.paths.enc)).equals(tampered)).toBe(true);
  });

  it.each([0, 10, 43, "half", "minus one"])("truncation (%s) gives VAULT_CORRUPT", async (cut) => {
    const { v, bytes } = await seeded();
    const length = cut === "half" ? bytes.length >> 1 : cut === "minus one" ? bytes.length - 1 : (cut as number);
    await truncate(v.paths.enc, length);
    const before = await readFile(v.paths.enc);
    await expectCode(v.list(), "VAULT_CORRUPT");
    await expectCode(v.remove("AAAAAAAAAAAAAAAA"), "VAULT_CORRUPT");
    expect((await readFile(v.paths.enc)).equals(before)).toBe(true);
  });

  it("a missing key gives VAULT_KEY_MISSING and no new key is written", async () => {
    const { v, bytes } = await seeded();
    await unlink(v.paths.key);
    await expectCode(v.list(), "VAULT_KEY_MISSING");
    await expectCode(v.add({ site: "https://example.net", username: "c", password: "p" }), "VAULT_KEY_MISSING");
    await expectCode(vault().generate({ site: "https://example.net" }), "VAULT_KEY_MISSING");
    await expect(stat(v.paths.key)).rejects.toMatchObject({ code: "ENOENT" });
    expect((await readFile(v.paths.enc)).equals(bytes)).toBe(true);
  });

  it("a different key gives VAULT_CORRUPT", async () => {
    const { v, bytes } = await seeded();
    await writeFile(v.paths.key, Buffer.alloc(VAULT_KEY_BYTES, 7));
    await expectCode(v.list(), "VAULT_CORRUPT");
    expect((await readFile(v.paths.enc)).equals(bytes)).toBe(true);
  });
});

describe("provisional entries and site scoping", () => {
  it("a generated password survives reopening, fills by exact id, then commits", async () => {
    const secrets: string[] = [];
    const gen = await vault({ onSecret: (s) => secrets.push(s) }).generate({ site: "https://shop.example.com/signup", username: "neo" });
    expect(gen).toMatchObject({ site: "https://shop.example.com", username: "neo", provisional: true });
    expect(JSON.stringify(gen)).not.toContain(secrets[0]);

    const after = vault(); // a restarted daemon
    expect(await after.list({ site: "https://www.example.com" })).toEqual([gen]);
    const fill = await after.secretForFill(gen.id, "https://shop.example.com/signup");
    expect(fill.password).toBe(secrets[0]);
    expect(fill.password).toHaveLength(DEFAULT_PASSWORD_LENGTH);
    for (const chars of PASSWORD_CLASSES) expect([...fill.password].some((c) => chars.includes(c))).toBe(true);

    const committed = await after.commit(gen.id, { site: "https://shop.example.com/welcome" });
    expect(committed).toMatchObject({ id: gen.id, provisional: false });
    expect(await after.commit(gen.id)).toEqual(committed);
    expect(await vault().list({ includeProvisional: false })).toEqual([committed]);
    await expectCode(after.discard(gen.id), "VAULT_NOT_FOUND");
    expect(await after.list()).toHaveLength(1);
  });

  it("discard removes only provisional entries, and only on their site", async () => {
    const v = vault();
    const gen = await v.generate({ site: "https://a.github.io", length: 40 });
    await expectCode(v.discard(gen.id, { site: "https://b.github.io" }), "VAULT_NOT_FOUND");
    await v.discard(gen.id, { site: "https://a.github.io/x" });
    expect(await v.list()).toEqual([]);
  });

  it("never hands a secret to another site or over http", async () => {
    const v = vault();
    const gh = await v.add({ site: "https://a.github.io", username: "a", password: "pa" });
    const ex = await v.add({ site: "https://example.com", username: "e", password: "pe" });
    const local = await v.add({ site: "http://127.0.0.1:8080", username: "l", password: "pl" });
    expect((await v.list({ site: "https://b.github.io" })).map((e) => e.id)).toEqual([]);
    expect((await v.list({ site: "http://example.com" })).map((e) => e.id)).toEqual([]);
    expect((await v.list({ site: "https://login.example.com" })).map((e) => e.id)).toEqual([ex.id]);
    expect((await v.list({ site: "http://127.0.0.1:8080/login" })).map((e) => e.id)).toEqual([local.id]);
    await expectCode(v.secretForFill(gh.id, "https://b.github.io/login"), "VAULT_NOT_FOUND");
    await expectCode(v.secretForFill(ex.id, "http://example.com/login"), "VAULT_NOT_FOUND");
    await expectCode(v.secretForFill(local.id, "http://127.0.0.1:8081/"), "VAULT_NOT_FOUND");
    await expectCode(v.commit(ex.id, { site: "https://example.org" }), "VAULT_NOT_FOUND");
    expect((await v.secretForFill(ex.id, "https://www.example.com/login")).password).toBe("pe");
  });
});

describe("audit", () => {
  it("records actions with metadata only, never usernames or passwords", async () => {
    const v = vault();
    const a = await v.add({ site: "https://example.com", username: "audit-user-77", password: "audit-pw-77", label: "audit-label-77" });
    await v.show(a.id);
    await v.secretForFill(a.id, "https://example.com");
    await v.update(a.id, { username: "audit-user-78", password: "audit-pw-78" });
    const g = await v.generate({ site: "https://example.org", username: "audit-user-79" });
    await v.commit(g.id, { username: "audit-user-80" });
    await expectCode(v.show("AAAAAAAAAAAAAAAA"), "VAULT_NOT_FOUND");
    await expectCode(v.add({ site: "https://example.net", username: "audit-user-81", password: "" }), "INVALID_ARGUMENT");
    await v.remove(a.id);

    const raw = await readFile(v.paths.audit, "utf8");
    const generated = (await v.show(g.id)).password;
    for (const needle of ["audit-user", "audit-pw", "audit-label", generated]) expect(raw).not.toContain(needle);
    const records = await v.audit();
    expect(records.map((r) => [r.action, r.ok])).toEqual([
      ["add", true], ["show", true], ["fill", true], ["update", true], ["generate", true], ["commit", true],
      ["show", false], ["add", false], ["remove", true], ["show", true],
    ]);
    expect(records[0]).toEqual({ at: "2030-01-01T00:00:02.000Z", action: "add", id: a.id, site: "https://example.com", ok: true });
    expect(records[6]).toMatchObject({ code: "VAULT_NOT_FOUND", id: "AAAAAAAAAAAAAAAA" });
    expect(await v.audit({ limit: 2 })).toEqual(records.slice(-2));
  });
});

describe("concurrent writers", () => {
  it("two instances in one process lose no update", async () => {
    const [a, b] = [vault(), vault()];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).add({ site: "https://example.com", username: `u${i}`, password: `p${i}` })),
    );
    expect((await vault().list()).map((e) => e.username).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `u${i}`).sort());
  });

  it("a busy lock waits a bounded time, then VAULT_BUSY", async () => {
    let releaseFirst!: () => void;
    let paused!: () => void;
    const isPaused = new Promise<void>((r) => (paused = r));
    const first = vault({ beforeCommit: () => new Promise<void>((r) => ((releaseFirst = r), paused())) });
    const slow = first.add({ site: "https://example.com", username: "first", password: "p1" });
    await isPaused;
    const started = Date.now();
    await expectCode(vault({ lock: { waitMs: 300 } }).add({ site: "https://example.com", username: "second", password: "p2" }), "VAULT_BUSY");
    expect(Date.now() - started).toBeLessThan(5_000);
    releaseFirst();
    await slow;
    expect((await vault().list()).map((e) => e.username)).toEqual(["first"]);
  });
});

describe("several processes share one vault", () => {
  let out: string;
  let script: string;

  beforeAll(async () => {
    // Child processes run the compiled production modules, as a second daemon would.
    out = await mkdtemp(join(tmpdir(), "bw-vault-build-"));
    const tsc = join(REPO, "node_modules/.bin/tsc");
    const args = ["--ignoreConfig", "--outDir", out, "--rootDir", REPO, "--module", "nodenext", "--moduleResolution", "nodenext",
      "--target", "es2022", "--skipLibCheck", "--types", "node", "--declaration", "false", "--sourceMap", "false",
      join(REPO, "daemon/vault/vault.ts")];
    spawnSync(tsc, args, { cwd: REPO, stdio: "ignore" });
    await stat(join(out, "daemon/vault/vault.js")); // fails loudly if the build emitted nothing
    await writeFile(join(out, "package.json"), '{"type":"module"}');
    await symlink(join(REPO, "node_modules"), join(out, "node_modules"));
    script = join(out, "child.mjs");
    await writeFile(script, `
      import { openVault } from ${JSON.stringify(join(out, "daemon/vault/vault.js"))};
      const [mode, home, tag, count] = process.argv.slice(2);
      if (mode === "add") {
        const v = openVault({ home, lock: { waitMs: 25000 } });
        for (let i = 0; i < Number(count); i++) await v.add({ site: "https://example.com", username: tag + "-" + i, password: "pw-" + tag + i });
      } else if (mode === "pause") {
        const v = openVault({ home, lock: { staleMs: 2000 }, beforeCommit: () => new Promise(() => {
          setInterval(() => {}, 1000);
          process.stdout.write("paused\\n");
        }) });
        await v.add({ site: "https://example.com", username: tag, password: "pw-" + tag });
      }
    `);
  });

  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  function run(...args: string[]): ChildProcess {
    const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    return child;
  }

  const exited = (child: ChildProcess): Promise<number | null> =>
    new Promise((r) => (child.exitCode !== null ? r(child.exitCode) : child.once("exit", (code) => r(code))));

  it("four processes adding at once lose none", async () => {
    await vault().add({ site: "https://example.com", username: "seed", password: "seed" });
    const codes = await Promise.all(["p0", "p1", "p2", "p3"].map((tag) => exited(run("add", home, tag, "5"))));
    expect(codes).toEqual([0, 0, 0, 0]);
    const names = (await vault().list()).map((e) => e.username);
    expect(names).toHaveLength(21);
    for (const tag of ["p0", "p1", "p2", "p3"]) for (let i = 0; i < 5; i++) expect(names).toContain(`${tag}-${i}`);
  });

  it("a writer killed mid-write leaves the old content, and its stale lock is taken over", async () => {
    const v = vault({ lock: { staleMs: 2_000, waitMs: 15_000 } });
    await v.add({ site: "https://example.com", username: "before", password: "pw" });
    const child = run("pause", home, "doomed");
    await new Promise<void>((r) => child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("paused") && r()));
    expect((await readdir(v.paths.dir)).some((f) => f.endsWith(".tmp"))).toBe(true);
    child.kill("SIGKILL");
    await exited(child);

    expect((await v.list()).map((e) => e.username)).toEqual(["before"]);
    await v.add({ site: "https://example.com", username: "after", password: "pw" });
    expect((await v.list()).map((e) => e.username).sort()).toEqual(["after", "before"]);
    expect((await readdir(v.paths.dir)).filter((f) => f.endsWith(".tmp") || f === "vault.lock")).toEqual([]);
  });
});

describe("redactor", () => {
  it("replaces every handled secret and its encodings in strings and JSON values", async () => {
    const redactor = new Redactor();
    const v = vault({ onSecret: (s) => redactor.add(s) });
    const secret = 'p@ss w/"x"&<ü>';
    const { id } = await v.add({ site: "https://example.com", username: "alice", password: secret });
    const spellings = [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2), Buffer.from(secret).toString("base64")];
    for (const spelled of spellings) expect(redactor.redactString(`a ${spelled} b`)).toBe(`a ${REDACTED} b`);
    const b64 = Buffer.from(`user:${secret}`).toString("base64");
    expect(redactor.redactString(`Authorization: Basic ${b64}`)).not.toContain(b64.slice(8, 20));

    const envelope = { ok: true, value: { [secret]: [secret, `x${encodeURIComponent(secret)}y`], n: 1 }, id };
    const cleaned = redactor.redact(envelope);
    expect(JSON.stringify(cleaned)).not.toContain("ss w/");
    expect(cleaned).toEqual({ ok: true, value: { [REDACTED]: [REDACTED, `x${REDACTED}y`], n: 1 }, id });
    expect(envelope.value[secret]?.[0]).toBe(secret); // input untouched

    const generated = await v.generate({ site: "https://example.com" });
    const { password } = await v.secretForFill(generated.id, "https://example.com");
    expect(redactor.redactString(JSON.stringify({ typed: password }))).toBe(`{"typed":"${REDACTED}"}`);
  });

  it("redacts numbers, keeps structure, and fails closed past its bound", () => {
    const redactor = new Redactor({ maxSecrets: 2 });
    redactor.add("123456");
    redactor.add("abc");
    expect(redactor.redact({ pin: 123456, other: 7, list: [null, true, "xabcx"] })).toEqual({ pin: REDACTED, other: 7, list: [null, true, `x${REDACTED}x`] });
    expect(() => redactor.add("third")).toThrow(expect.objectContaining({ code: "LIMIT_EXCEEDED" }));
    expect(() => redactor.redactString("abc")).toThrow(expect.objectContaining({ code: "LIMIT_EXCEEDED" }));
  });
});
