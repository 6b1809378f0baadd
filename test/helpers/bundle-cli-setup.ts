// The e2e tests drive the bundled CLI (dist/bin). `tsc` alone does not rebuild
// the bundle, so it is made here from whatever tsc last wrote to dist/cli:
// a test never runs a CLI older than the code beside it.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function bundleCli(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL("../../scripts/bundle-cli.mjs", import.meta.url))], { stdio: "inherit" });
}
