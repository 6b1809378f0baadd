// The e2e suite's secret canary must be able to fail: planted in a file or in
// captured output, in any spelling, it is found.
import { mkdirSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openVault } from "../../dist/daemon/vault/index.js";
import { assertNoCanaryInOutput, CANARY_PASSWORD, CANARY_USERNAME, canaryLeaksUnder } from "../helpers/canary.js";
import { destroyHome, homeReady, tempHome } from "../helpers/cli.js";

const spellings = {
  plain: CANARY_PASSWORD,
  url: encodeURIComponent(CANARY_PASSWORD),
  form: new URLSearchParams({ v: CANARY_PASSWORD }).toString().slice(2),
  base64: Buffer.from(CANARY_PASSWORD).toString("base64"),
  "base64 inside a longer blob": Buffer.from(`xy${CANARY_PASSWORD}z`).toString("base64"),
  json: JSON.stringify({ p: CANARY_PASSWORD }),
};

describe("the secret canary", () => {
  it("is in a fresh home's vault, and only vault.enc holds it", async () => {
    const started = performance.now();
    const home = tempHome("bw-canary-");
    await homeReady(home);
    const seededMs = performance.now() - started;
    const entries = await openVault({ home }).list();
    expect(entries.map((e) => e.username)).toEqual([CANARY_USERNAME]);
    expect(canaryLeaksUnder(home)).toEqual([]);
    await destroyHome(home);
    expect(existsSync(home)).toBe(false);
    expect(seededMs).toBeLessThan(2_000);
  });

  it.each(Object.entries(spellings))("is found in output spelled %s", (_, text) => {
    expect(() => assertNoCanaryInOutput("exec", `before ${text} after`, "")).toThrow(/canary/);
    expect(() => assertNoCanaryInOutput("exec", "", text)).toThrow(/stderr/);
  });

  it("is found in any file of the home, and destroyHome still removes it and then fails", async () => {
    const home = tempHome("bw-canary-");
    await homeReady(home);
    mkdirSync(path.join(home, "profiles", "x"), { recursive: true });
    writeFileSync(path.join(home, "profiles", "x", "Cookies"), Buffer.concat([Buffer.alloc(5000), Buffer.from(spellings["base64 inside a longer blob"])]));
    writeFileSync(path.join(home, "daemon.log"), "nothing here\n");
    expect(canaryLeaksUnder(home)).toEqual([expect.stringMatching(/^profiles\/x\/Cookies: /)]);
    await expect(destroyHome(home)).rejects.toThrow(/secret canary found under .*profiles\/x\/Cookies/);
    expect(existsSync(home)).toBe(false);
  });
});
