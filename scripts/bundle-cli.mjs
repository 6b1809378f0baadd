// Bundles the CLI (tsc's output under dist/cli, dist/client, dist/shared) into
// dist/bin, as CommonJS:
// - cli.cjs, the whole CLI in one script. Node 20 resolves and links ES
//   modules one by one, and only a script's compiled code can be cached with
//   a public API (vm.Script's cachedData); cli/launcher.ts loads it so.
// - betterwright.js (the `betterwright` command), that launcher: a few lines,
//   Node's built-ins only.
// Packages stay external (node_modules, loaded when a command needs them),
// env-paths aside, and so does the daemon's code: the `--no-daemon` path
// imports dist/daemon at run time, one copy of it only. dist/bin sits at the
// same depth as dist/cli, so `new URL("../daemon/…", import.meta.url)` finds
// the same files from either.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "bin");
// env-paths (and its one dependency) is bundled: the warm path computes the socket path with it, and
// resolving it from node_modules costs ~6 ms of every call (Node's package resolution; docs/performance.md).
const BUNDLED_PACKAGES = ["env-paths"];
const { dependencies } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const externalPackages = Object.keys(dependencies).filter((name) => !BUNDLED_PACKAGES.includes(name));

/** What both scripts share: CommonJS for Node 20, `import.meta.url` made from the script's own file. */
const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { "import.meta.url": "__bwModuleUrl" },
  banner: { js: 'const __bwModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: "warning",
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const cli = await build({
  ...common,
  entryPoints: [path.join(root, "dist", "cli", "main.js")],
  outfile: path.join(outdir, "cli.cjs"),
  external: [...externalPackages, "../daemon/*"],
  write: false,
  metafile: true,
});
// A script compiled by vm.Script has no import() of its own on Node 20 (and none at all once its code
// comes from a cache): each `import("…")` the bundle keeps (packages, daemon code, built-ins loaded on
// demand) calls the launcher's instead. dist/bin holds both files, so a relative specifier means the same.
// Daemon code stays out of the CLI: the spawn starts dist/daemon, and --no-daemon imports it (client/daemon-code.ts).
const daemonInputs = Object.keys(cli.metafile.inputs).filter((input) => path.resolve(root, input).startsWith(path.join(root, "dist", "daemon") + path.sep));
if (daemonInputs.length > 0) throw new Error(`cli.cjs would carry daemon code (${daemonInputs.join(", ")}): load it through client/daemon-code.ts`);
const kept = Object.values(cli.metafile.outputs)[0].imports.filter((i) => i.kind === "dynamic-import" && i.external).length;
let text = cli.outputFiles[0].text;
let replaced = 0;
text = text.replace(/\bimport\((?=["'])/g, () => (replaced++, "__bwImport("));
if (replaced !== kept) throw new Error(`cli.cjs: ${kept} dynamic imports kept, ${replaced} rewritten; check the bundle by hand`);
writeFileSync(path.join(outdir, "cli.cjs"), text);
await build({
  ...common,
  entryPoints: [path.join(root, "dist", "cli", "launcher.js")],
  outfile: path.join(outdir, "betterwright.js"),
  banner: { js: `#!/usr/bin/env node\n${common.banner.js}` },
});
// The package is ESM ("type": "module"); these two are scripts.
writeFileSync(path.join(outdir, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
chmodSync(path.join(outdir, "betterwright.js"), 0o755);
