// Bundles the CLI (tsc's output under dist/cli, dist/client, dist/shared) into
// dist/bin: one file for the warm path (exec, run, repl) instead of ~50 ES
// modules, which Node 20 resolves and links one by one (~20 ms of every call).
// Commands off the warm path (yargs, help, vault…) stay in chunks loaded on
// demand. Packages stay external (node_modules), env-paths aside, and so does the daemon's code:
// the `--no-daemon` path imports dist/daemon at run time, one copy of it only.
// Chunks stay flat: dist/bin sits at the same depth as dist/cli, so `new URL("../daemon/…",
// import.meta.url)` finds the same files from either.
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
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

/**
 * Node's ESM facade of a built-in module reads every export when it is first
 * imported, which runs the lazy getters behind them (fs.ReadStream,
 * util.MIMEType, module's source maps…) and loads modules the CLI never uses:
 * ~3 ms of CPU on a warm call. In the bundle a built-in comes from
 * process.getBuiltinModule instead, with its plain exports, and those behind a
 * getter that the CLI imports by name (GETTER_IMPORTS; a missing one fails the
 * build with "No matching export").
 */
const GETTER_IMPORTS = { "node:util": ["parseArgs"] };
const BUILTIN = new RegExp(`^(?:node:)?(?:${builtinModules.map((m) => m.replace(/[/]/g, "\\/")).join("|")})$`);
const builtinsWithoutFacade = {
  name: "builtins-without-facade",
  setup(build) {
    build.onResolve({ filter: BUILTIN }, (args) => ({ path: args.path.startsWith("node:") ? args.path : `node:${args.path}`, namespace: "builtin" }));
    build.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => {
      const module = createRequire(import.meta.url)(args.path);
      const wanted = GETTER_IMPORTS[args.path] ?? [];
      const names = Object.keys(module).filter((name) => name !== "default" && (!Object.getOwnPropertyDescriptor(module, name)?.get || wanted.includes(name)));
      const contents = [
        `const builtin = process.getBuiltinModule(${JSON.stringify(args.path)});`,
        "export default builtin;",
        ...names.map((name, i) => `const _${i} = builtin[${JSON.stringify(name)}];\nexport { _${i} as ${JSON.stringify(name)} };`),
      ].join("\n");
      return { contents, loader: "js" };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { betterwright: path.join(root, "dist", "cli", "main.js") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: [...externalPackages, "../daemon/*"],
  plugins: [builtinsWithoutFacade],
  logLevel: "warning",
});
chmodSync(path.join(outdir, "betterwright.js"), 0o755);
