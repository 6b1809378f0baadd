// A secret canary for every e2e home: one credential seeded straight into the
// vault with the built vault module, then looked for in every captured output
// and, at teardown, in every file of the home but the encrypted vault itself.
import { randomBytes } from "node:crypto";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { openVault, secretPattern } from "../../dist/daemon/vault/index.js";
import { VAULT_FILE_NAMES } from "../../shared/protocol/methods/vault.js";

export const CANARY_USERNAME = "canary";
/** Offered on every page the tests serve; tests that pin what a page lists seed it elsewhere. */
export const CANARY_SITE = "http://127.0.0.1";
export const CANARY_ELSEWHERE = "https://canary.invalid";

/** One per test process; the characters after the hex make its URL, form and JSON spellings differ from it. */
export const CANARY_PASSWORD = `Canary-${randomBytes(12).toString("hex")}/+ &=`;
/** Every spelling the redactor knows (raw, HTML, JSON, URL, form, base64, stacked): a leak in any of them is found. */
const SPELLINGS = new RegExp(secretPattern(CANARY_PASSWORD), "g");

export async function seedCanary(home: string, site: string = CANARY_SITE): Promise<void> {
  await openVault({ home }).add({ site, username: CANARY_USERNAME, password: CANARY_PASSWORD });
}

/** The spellings of the canary found in `text`. */
export function canarySpellingsIn(text: string | Buffer): string[] {
  return [...new Set(String(text).match(SPELLINGS) ?? [])];
}

export function assertNoCanaryInOutput(what: string, stdout: string, stderr: string): void {
  const found = [...canarySpellingsIn(stdout).map((s) => `stdout: ${s}`), ...canarySpellingsIn(stderr).map((s) => `stderr: ${s}`)];
  if (found.length > 0) throw new Error(`secret canary leaked in the output of betterwright ${what}: ${found.join(", ")}`);
}

/** Every regular file under `home` except vault.enc that holds a spelling of the canary; each file is read once. */
export function canaryLeaksUnder(home: string): string[] {
  const vaultEnc = path.join(home, "vault", VAULT_FILE_NAMES.enc);
  const leaks: string[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return; // removed meanwhile, or not a folder we may read
    }
    for (const name of names) {
      const file = path.join(dir, name);
      let stat;
      try {
        stat = lstatSync(file);
      } catch {
        continue;
      }
      if (stat.isDirectory()) walk(file);
      else if (stat.isFile() && file !== vaultEnc) {
        let content: Buffer;
        try {
          content = readFileSync(file);
        } catch {
          continue;
        }
        const found = canarySpellingsIn(content);
        if (found.length > 0) leaks.push(`${path.relative(home, file)}: ${found.join(", ")}`);
      }
    }
  };
  walk(home);
  return leaks;
}
