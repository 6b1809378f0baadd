// Runs a fixture script inside a network namespace that has only loopback
// (`unshare --net`, then `setup`), so that nothing a test aims at can leave
// the machine: a broken guard fails the test instead of reaching the network.
// The fixture prints one JSON object of observations on stdout.
import { spawn } from "node:child_process";

export function runInLoopbackNamespace(fixture: string, args: string[], setup: string, timeoutMs: number): Promise<any> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("BETTERWRIGHT_")) env[k] = v;
    const positional = [fixture, ...args].map((_, i) => `"$${i + 1}"`).join(" ");
    const child = spawn("unshare", ["--net", "sh", "-c", `${setup} && exec "$0" ${positional}`, process.execPath, fixture, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`fixture exited ${code}: ${stdout}\n${stderr}`));
      }
    });
  });
}
