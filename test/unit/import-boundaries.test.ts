// The layout is the process diagram (docs/architecture.md), one rule per arrow:
//   cli ─▶ client/library ─▶ shared          short-lived clients
//   client/front-doors/{mcp,http} ─▶ client/index.ts (the library's public API), client/front-doors/common, shared
//   daemon ─▶ shared, and spawns daemon/browser-worker by path, never by import
//   daemon/browser-worker ─▶ shared, never shared/guard/policy (the worker asks; the daemon decides)
//   daemon/browser-worker/realm/in-context: types of itself only (compiled from its source text into the vm context)
//   shared ─▶ shared
// Every form of loading counts (static, type-only, `import()`, `require`, `createRequire`), followed
// transitively; a load whose target is not a string literal is refused, since it cannot be checked. The
// in-process mode's one dynamic import of the daemon host is the only crossing, pinned to its file. The
// launcher's import(specifier) is the one opaque load: it is the bundled CLI's import(), so each of its
// targets is a literal of the CLI's own sources, checked here where it is written.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { graphOf, importCircles, reachability, readSources, readsProcessEnv, scanImports, type Edge, type ImportGraph } from "../helpers/import-graph.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TOP = ["cli", "client", "daemon", "shared"] as const;
/** The one crossing from the clients into the daemon: `--no-daemon` / `daemon: false` loading the host. */
const IN_PROCESS: Edge = { from: "client/daemon-code.ts", to: "daemon/in-process.ts", kind: "dynamic" };
const WORKER = "daemon/browser-worker";
const IN_CONTEXT = `${WORKER}/realm/in-context`;
const FRONT_DOORS = "client/front-doors";

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);
const inProduct = (file: string) => TOP.some((top) => under(file, top));
const within = (file: string, ...dirs: string[]) => dirs.some((dir) => under(file, dir));
/** The bundled CLI's import() (cli/launcher.ts hands it its own): its targets are checked in the CLI's sources. */
const LAUNCHER_IMPORT = { from: "cli/launcher.ts", kind: "dynamic" };
const isInProcess = (e: Edge) => e.from === IN_PROCESS.from && e.to === IN_PROCESS.to && e.kind === IN_PROCESS.kind;

/** What a file of one box may reach, directly or through others: the arrows of the diagram. */
function reachViolation(from: string, reached: string): string | undefined {
  if (!inProduct(reached)) return undefined; // a package or a built-in
  if (under(from, "shared") && !under(reached, "shared")) return "shared reaches only shared";
  if (under(from, "cli") && !within(reached, "cli", "client", "shared")) return "cli reaches cli, client and shared only";
  if (under(from, "client") && !within(reached, "client", "shared")) return "client reaches client and shared only (the in-process import aside)";
  if (under(from, WORKER)) {
    if (!within(reached, WORKER, "shared")) return "the worker reaches only itself and shared";
    if (under(reached, "shared/guard/policy")) return "the worker never reaches the policy";
  } else if (under(from, "daemon")) {
    if (under(reached, WORKER)) return "the daemon spawns its worker by path and never imports it";
    if (!within(reached, "daemon", "shared")) return "daemon reaches daemon and shared only";
  }
  return undefined;
}

/** Rules on what a file imports itself, not on what that brings in. */
function directViolation(edge: Edge): string | undefined {
  const { from, to } = edge;
  // The front doors are servers and clients of the daemon through the library's public API
  // (client/index.ts), what they share (client/front-doors/common) and shared, nothing else.
  for (const door of [`${FRONT_DOORS}/mcp`, `${FRONT_DOORS}/http`]) {
    if (under(from, door) && inProduct(to) && !(within(to, door, `${FRONT_DOORS}/common`, "shared") || to === "client/index.ts")) {
      return `${door} imports only the library's public API (client/index.ts), ${FRONT_DOORS}/common, itself and shared`;
    }
  }
  // What runs inside the vm context is compiled there from its own source text: a value it imported would not exist.
  if (under(from, IN_CONTEXT) && inProduct(to) && !(under(to, IN_CONTEXT) && edge.kind === "type")) {
    return "in-context code imports only types, and only of in-context code";
  }
  return undefined;
}

/** Every broken rule of a graph: each file against everything it reaches (not through the in-process import), and its own imports. */
function violations(graph: ImportGraph): string[] {
  const reachable = reachability(graph, (e) => !isInProcess(e));
  const bad: string[] = [];
  const files = new Set(graph.edges.map((e) => e.from));
  for (const from of files) {
    for (const reached of reachable(from)) {
      const why = reachViolation(from, reached);
      if (why) bad.push(`${from} → ${reached}: ${why}`);
    }
  }
  for (const edge of graph.edges) {
    const why = directViolation(edge);
    if (why) bad.push(`${edge.from} → ${edge.to}: ${why}`);
  }
  for (const { from, kind } of graph.opaque.filter((o) => !(o.from === LAUNCHER_IMPORT.from && o.kind === LAUNCHER_IMPORT.kind))) bad.push(`${from}: a ${kind} load whose target is not a string literal cannot be checked`);
  return bad;
}

/** Every load from the clients (cli, client) into the daemon. */
const crossings = (graph: ImportGraph) => graph.edges.filter((e) => (under(e.from, "cli") || under(e.from, "client")) && under(e.to, "daemon"));

describe("import boundaries", () => {
  const graph = graphOf(readSources(ROOT, TOP));

  it("finds the imports it checks", () => {
    expect(graph.edges.length).toBeGreaterThan(50);
    expect(graph.edges.some((e) => e.from.startsWith("cli/") && e.to.startsWith("client/"))).toBe(true);
    // The loads that are not static imports are seen too.
    expect(graph.edges).toContainEqual({ from: "daemon/browser-worker/playwright.ts", to: "playwright-core", kind: "require" });
    expect(graph.edges).toContainEqual({ from: "cli/main.ts", to: "cli/yargs-cli.ts", kind: "dynamic" });
  });

  it("has no file reaching across a boundary, and no load it cannot follow", () => {
    expect(violations(graph)).toEqual([]);
  });

  it("has no import circle in the daemon's process, type-only imports included", () => {
    expect(importCircles(graph, (file) => under(file, "daemon"))).toEqual([]);
  });

  it("crosses from the clients into the daemon exactly once: the in-process host, from client/daemon-code.ts", () => {
    expect(crossings(graph)).toEqual([IN_PROCESS]);
  });
});

describe("the environment", () => {
  /** The daemon's entry points read the environment and hand it to what they build (docs/architecture.md). */
  const ENTRY_POINTS = ["daemon/main.ts", "daemon/in-process.ts", `${WORKER}/main.ts`];

  it("is read in the daemon's processes only by their entry points", () => {
    const readers = [...readSources(ROOT, ["daemon"])].filter(([, text]) => readsProcessEnv(text)).map(([file]) => file);
    expect(readers.filter((file) => !ENTRY_POINTS.includes(file))).toEqual([]);
  });

  it("is seen however it is read, and not in comments or strings", () => {
    expect(readsProcessEnv("const a = process.env.HOME;")).toBe(true);
    expect(readsProcessEnv(`const { PATH } = process["env"];`)).toBe(true);
    expect(readsProcessEnv("f(process.env);")).toBe(true);
    expect(readsProcessEnv(`// process.env\nconst text = "process.env"; const e = options.env; process.pid;`)).toBe(false);
  });
});

describe("the boundary check itself", () => {
  const graph = (files: Record<string, string>) => graphOf(new Map(Object.entries(files)));

  it("reads every form of loading, and not what only looks like one", () => {
    const refs = scanImports(`
      import { a } from "./a.js";
      import type { B } from "./b.js";
      export * from "./c.js";
      export { d } from "./d.js";
      import "./e.js";
      import { createRequire as makeRequire } from "node:module";
      import * as nodeModule from "node:module";
      type P = typeof import("./f.js");
      const load = makeRequire(import.meta.url);
      load("./g.js");
      makeRequire(import.meta.url)("./h.js");
      nodeModule.createRequire(import.meta.url)("./i.js");
      require("./j.js");
      await import("./k.js");
      await import(\`./l.js\`);
      await import(someName);
      load(\`./\${someName}.js\`);
      // import("./not-a-comment.js") and require("./nor-this.js")
      const text = 'import("./nor-a-string.js")';
      makeRequire(import.meta.url).resolve("./only-a-path.js");
    `);
    expect(refs).toEqual([
      { kind: "static", spec: "./a.js" },
      { kind: "type", spec: "./b.js" },
      { kind: "static", spec: "./c.js" },
      { kind: "static", spec: "./d.js" },
      { kind: "static", spec: "./e.js" },
      { kind: "static", spec: "node:module" },
      { kind: "static", spec: "node:module" },
      { kind: "type", spec: "./f.js" },
      { kind: "require", spec: "./g.js" },
      { kind: "require", spec: "./h.js" },
      { kind: "require", spec: "./i.js" },
      { kind: "require", spec: "./j.js" },
      { kind: "dynamic", spec: "./k.js" },
      { kind: "dynamic", spec: "./l.js" },
      { kind: "dynamic", spec: undefined },
      { kind: "require", spec: undefined },
    ]);
  });

  it("refuses a boundary crossed through a file in between, by any form", () => {
    expect(violations(graph({
      "daemon/browser-worker/session.ts": `import { x } from "../../shared/helper.js";`,
      "shared/helper.ts": `import { createRequire } from "node:module"; export const x = createRequire(import.meta.url)("./guard/policy/network-policy.js");`,
      "shared/guard/policy/network-policy.ts": "",
    }))).toEqual([expect.stringContaining("daemon/browser-worker/session.ts → shared/guard/policy/network-policy.ts: the worker never reaches the policy")]);
    expect(violations(graph({
      "cli/main.ts": `await import("../client/run.js");`,
      "client/run.ts": `const load = (await import("node:module")).createRequire; import type { Vault } from "../daemon/vault/vault.js";`,
      "daemon/vault/vault.ts": "",
    }))).toEqual([
      expect.stringContaining("cli/main.ts → daemon/vault/vault.ts"),
      expect.stringContaining("client/run.ts → daemon/vault/vault.ts"),
    ]);
    expect(violations(graph({ "daemon/daemon.ts": `import { a } from "./browser-worker/session.js";`, "daemon/browser-worker/session.ts": "" })))
      .toEqual([expect.stringContaining("spawns its worker by path")]);
    expect(violations(graph({ "client/front-doors/mcp/server.ts": `import { x } from "../daemon-client.js";`, "client/library/daemon-client.ts": "" })))
      .toEqual([expect.stringContaining("public API")]);
    expect(violations(graph({ [`${IN_CONTEXT}/a.ts`]: `import { b } from "./b.js";`, [`${IN_CONTEXT}/b.ts`]: "" })))
      .toEqual([expect.stringContaining("in-context code imports only types")]);
    expect(violations(graph({ "client/x.ts": "await import(`../daemon/${name}.js`);" })))
      .toEqual([expect.stringContaining("cannot be checked")]);
  });

  it("finds an import circle, through files in between and type-only imports", () => {
    const circles = importCircles(graph({
      "daemon/daemon.ts": `import { a } from "./methods/a.js"; import "./log.js";`,
      "daemon/methods/a.ts": `import { b } from "./b.js";`,
      "daemon/methods/b.ts": `import type { Daemon } from "../daemon.js";`,
      "daemon/log.ts": `import type { Self } from "./log.js";`,
      "daemon/main.ts": `import { Daemon } from "./daemon.js";`,
    }), (file) => under(file, "daemon"));
    expect(circles).toEqual([["daemon/daemon.ts", "daemon/methods/a.ts", "daemon/methods/b.ts"], ["daemon/log.ts"]]);
  });

  it("lets the in-process import through, and only from its file", () => {
    const host = { "client/daemon-code.ts": `await import("../daemon/in-process.js");`, "daemon/in-process.ts": `import "./daemon.js";`, "daemon/daemon.ts": "" };
    expect(violations(graph(host))).toEqual([]);
    expect(crossings(graph(host))).toEqual([IN_PROCESS]);
    const moved = graph({ "client/other.ts": `await import("../daemon/in-process.js");`, "daemon/in-process.ts": "" });
    expect(violations(moved)).toEqual([expect.stringContaining("client/other.ts → daemon/in-process.ts")]);
    expect(crossings(moved)).not.toEqual([IN_PROCESS]);
    expect(crossings(graph({ "client/daemon-code.ts": "" }))).not.toEqual([IN_PROCESS]);
  });
});
