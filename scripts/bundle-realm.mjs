// Bundles the realm thread (tsc's output under dist/daemon/browser-worker/realm and
// the sandbox modules it imports) into one file beside it. Every session's
// realm is a worker thread that loads its modules afresh; one file instead of
// a dozen ES modules, each resolved, read and linked per thread, makes a realm
// start ~20 % cheaper (docs/performance.md, "What was optimised"). realm.ts
// uses the bundle when it is at least as new as the module, the module otherwise.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const realmDir = path.join(root, "dist", "daemon", "browser-worker", "realm");

await build({
  entryPoints: [path.join(realmDir, "realm-thread.js")],
  outfile: path.join(realmDir, "realm-thread.bundle.js"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // The sandbox compiles some of these functions into the snippet's context from their own
  // source text (daemon/browser-worker/realm/context.ts): no renaming helpers, no minifying, no syntax lowering.
  minify: false,
  keepNames: false,
  packages: "external",
  logLevel: "warning",
});
