// The layout is the architecture: cli → client → shared, daemon → shared, and
// the worker never reaches the vault, the policy or the rest of the daemon.
// The in-process mode's one dynamic import of the daemon host is the only
// exception, and it must stay in one file of client/.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TOP = ["cli", "client", "daemon", "shared"] as const;
const IMPORT = /(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;

interface Edge {
  from: string;
  to: string;
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (entry.name.endsWith(".ts")) out.push(rel);
  }
  return out;
}

function edges(): Edge[] {
  const all: Edge[] = [];
  for (const top of TOP) {
    for (const file of sourceFiles(top)) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const spec = match[1] ?? match[2] ?? match[3]!;
        if (!spec.startsWith(".")) continue;
        const to = path.normalize(path.join(path.dirname(file), spec));
        all.push({ from: file, to, dynamic: match[2] !== undefined });
      }
    }
  }
  return all;
}

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);

function violation(edge: Edge): string | undefined {
  const { from, to } = edge;
  if (under(from, "shared") && !under(to, "shared")) return "shared imports only shared";
  if (under(from, "cli") && !(under(to, "cli") || under(to, "client") || under(to, "shared"))) return "cli imports cli, client and shared only";
  if (under(from, "client") && under(to, "daemon")) return edge.dynamic ? undefined : "client never imports daemon (except the one dynamic import)";
  if (under(from, "client") && !(under(to, "client") || under(to, "shared") || under(to, "daemon"))) return "client imports client and shared only";
  if (under(from, "daemon/worker")) {
    if (!(under(to, "daemon/worker") || under(to, "shared"))) return "the worker imports only itself and shared";
    if (under(to, "shared/policy")) return "the worker never imports the policy";
  }
  if (under(from, "daemon") && !(under(to, "daemon") || under(to, "shared"))) return "daemon imports daemon and shared only";
  return undefined;
}

describe("import boundaries", () => {
  const all = edges();

  it("finds the imports it checks", () => {
    expect(all.length).toBeGreaterThan(50);
    expect(all.some((e) => e.from.startsWith("cli/") && e.to.startsWith("client/"))).toBe(true);
  });

  it("has no import across a forbidden boundary", () => {
    const bad = all.map((e) => ({ ...e, why: violation(e) })).filter((e) => e.why !== undefined);
    expect(bad).toEqual([]);
  });

  it("allows the daemon-host dynamic import from one client file only", () => {
    const files = new Set(all.filter((e) => e.from.startsWith("client/") && under(e.to, "daemon")).map((e) => e.from));
    expect(files.size).toBeLessThanOrEqual(1);
  });

  it("recognises a forbidden edge when it sees one", () => {
    expect(violation({ from: "cli/main.ts", to: "daemon/daemon.js", dynamic: false })).toBeDefined();
    expect(violation({ from: "daemon/worker/session.ts", to: "daemon/vault/vault.js", dynamic: false })).toBeDefined();
    expect(violation({ from: "daemon/worker/session.ts", to: "shared/policy/network-policy.js", dynamic: false })).toBeDefined();
    expect(violation({ from: "client/index.ts", to: "daemon/daemon.js", dynamic: false })).toBeDefined();
    expect(violation({ from: "shared/config.ts", to: "client/index.js", dynamic: false })).toBeDefined();
  });
});
