// The e2e tests drive the bundled CLI (dist/bin). `tsc` alone does not rebuild
// the bundle, so it is made here from whatever tsc last wrote to dist/cli:
// a test never runs a CLI older than the code beside it. The same for the realm
// thread's bundle (scripts/bundle-realm.mjs).
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function bundleCli(): void {
  for (const script of ["bundle-cli.mjs", "bundle-realm.mjs"]) {
    execFileSync(process.execPath, [fileURLToPath(new URL(`../../scripts/${script}`, import.meta.url))], { stdio: "inherit" });
  }
}
