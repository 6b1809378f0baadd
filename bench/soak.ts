// npm run soak [-- --sessions 8 --execs 500 --pace 1000]: the long soak (about 9 minutes). Prints the
// memory and descriptor table and exits 1 when the daemon or worker grew by
// 20 % or more after the first eighth, leaked descriptors, restarted its
// worker or failed an exec.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { BetterWright } from "../client/index.js";
import { layoutFor } from "../shared/paths.js";
import { startPageServer } from "./page-server.js";
import { formatSoak, runSoak, soakProblems } from "./soak-core.js";

const { values } = parseArgs({ options: { sessions: { type: "string", default: "8" }, execs: { type: "string", default: "500" }, pace: { type: "string", default: "1000" } } });
const sessions = Number(values.sessions);
const execs = Number(values.execs);
const home = mkdtempSync(path.join(tmpdir(), "bw-soak-"));
const env: NodeJS.ProcessEnv = {};
for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("BETTERWRIGHT_")) env[k] = v;
env.BETTERWRIGHT_HOME = home;
const server = await startPageServer();
let failed = true;
try {
  const report = await runSoak({ home, env, url: server.url, sessions, execsPerSession: execs, paceMs: Number(values.pace), progress: (line) => process.stderr.write(`${line}\n`) });
  process.stdout.write(`${formatSoak(report)}\n`);
  const problems = soakProblems(report);
  for (const problem of problems) process.stdout.write(`FAIL: ${problem}\n`);
  failed = problems.length > 0;
} finally {
  // Connect (sessions) so that close can stop the daemon, then wait for it to remove its info file.
  const bw = new BetterWright({ home, env });
  await bw.sessions().catch(() => {});
  await bw.close({ stopDaemon: true }).catch(() => {});
  for (let i = 0; i < 120 && existsSync(layoutFor(home).infoPath); i++) await new Promise((r) => setTimeout(r, 100));
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
