// `betterwright vault` end to end: several profiles' daemons writing the one
// shared vault at once, the reveal gate and its audit, and damaged files
// reported with their own codes and left as they were.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor } from "../../shared/paths.js";
import { VAULT_FILE_NAMES } from "../../shared/protocol/methods/index.js";
import { CANARY_USERNAME } from "../helpers/canary.js";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";

const PROFILES = ["default", "work", "home", "shop"];
const WRITERS = 10;

describe("betterwright vault", () => {
  let home: string;
  let vaultDir: string;
  const vault = (args: string[], input?: string) =>
    runCli(["vault", ...args], { home, ...(input === undefined ? {} : { input }) });

  beforeAll(() => {
    home = tempHome();
    vaultDir = layoutFor(home).vaultDir;
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  it("ten adds at once over four profiles' daemons lose none", async () => {
    const results = await Promise.all(Array.from({ length: WRITERS }, (_, i) => {
      const profile = PROFILES[i % PROFILES.length]!;
      return runCli([
        ...(profile === "default" ? [] : ["--profile", profile]),
        "vault", "add", "--site", `https://login.example${i}.com/signin`, "--username", `user${i}`, "--json",
      ], { home, input: `password-${i}-Xy!` });
    }));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(daemonPids(home).length).toBe(PROFILES.length);

    const listed = await vault(["list", "--json"]);
    expect(listed.code).toBe(0);
    // The suite's canary (test/helpers/canary.ts) is in every home's vault too.
    const entries = (listed.json.entries as { id: string; site: string; username: string }[]).filter((e) => e.username !== CANARY_USERNAME);
    expect(entries.map((e) => e.username).sort()).toEqual(Array.from({ length: WRITERS }, (_, i) => `user${i}`).sort());
    expect(new Set(entries.map((e) => e.id)).size).toBe(WRITERS);
    expect(JSON.stringify(listed.json)).not.toContain("password-");

    const site3 = await vault(["list", "--site", "https://www.example3.com/", "--json"]);
    expect(site3.json.entries.map((e: { username: string }) => e.username)).toEqual(["user3"]);
  });

  it("reveals a password only to a terminal or with --force, and audits it", async () => {
    const entry = (await vault(["list", "--json"])).json.entries.find((e: { username: string }) => e.username === "user4");
    const refused = await vault(["show", entry.id, "--reveal"]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("--force");
    expect((await vault(["audit", "--json"])).json.records.some((r: { action: string }) => r.action === "show")).toBe(false);

    const meta = await vault(["show", entry.id]);
    expect(meta.json.entry).toMatchObject({ id: entry.id, username: "user4" });
    expect(meta.stdout).not.toContain("password-4");

    const forced = await vault(["show", entry.id, "--reveal", "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toBe("password-4-Xy!\n");
    const records = (await vault(["audit", "--json"])).json.records as Record<string, unknown>[];
    expect(records.filter((r) => r.action === "show")).toEqual([expect.objectContaining({ id: entry.id, ok: true, site: "https://login.example4.com" })]);
    const auditText = readFileSync(path.join(vaultDir, VAULT_FILE_NAMES.audit), "utf8");
    expect(auditText).not.toMatch(/password-|user\d/);

    const argv = await vault(["add", "--site", "https://x.example.com", "--username", "x", "--password", "hunter2-on-argv"]);
    expect(argv.code).toBe(2);
    expect(argv.stdout + argv.stderr).not.toContain("hunter2-on-argv");
    expect(argv.stderr).toContain("never taken from the command line");

    expect((await vault(["rm", entry.id, "--json"])).json.removed.id).toBe(entry.id);
    expect((await vault(["show", entry.id, "--json"])).json.error.code).toBe("VAULT_NOT_FOUND");
    expect((await vault(["path", "--json"])).json).toMatchObject({ dir: vaultDir, enc: path.join(vaultDir, VAULT_FILE_NAMES.enc) });
  });

  it("a tampered vault.enc gives VAULT_CORRUPT and is left untouched; a missing key gives VAULT_KEY_MISSING and no new key", async () => {
    const encPath = path.join(vaultDir, VAULT_FILE_NAMES.enc);
    const keyPath = path.join(vaultDir, VAULT_FILE_NAMES.key);
    const original = readFileSync(encPath);
    const tampered = Buffer.from(original);
    tampered[Math.floor(tampered.length / 2)]! ^= 0x01;
    writeFileSync(encPath, tampered);

    const listed = await vault(["list", "--json"]);
    expect(listed.code).toBe(1);
    expect(listed.json.error.code).toBe("VAULT_CORRUPT");
    const added = await vault(["add", "--site", "https://new.example.com", "--username", "n", "--json"], "new-password-1");
    expect(added.json.error.code).toBe("VAULT_CORRUPT");
    expect(readFileSync(encPath).equals(tampered)).toBe(true);

    writeFileSync(encPath, original);
    expect((await vault(["list", "--json"])).code).toBe(0);

    rmSync(keyPath);
    const noKey = await vault(["list"]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("VAULT_KEY_MISSING");
    const addNoKey = await vault(["add", "--site", "https://new.example.com", "--username", "n", "--json"], "new-password-1");
    expect(addNoKey.json.error.code).toBe("VAULT_KEY_MISSING");
    expect(existsSync(keyPath)).toBe(false);
    expect(readFileSync(encPath).equals(original)).toBe(true);
  });
});
