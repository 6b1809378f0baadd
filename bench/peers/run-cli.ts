// One whole CLI process of a tool, timed from spawn to exit. A call that hangs
// is killed by its pid after timeoutMs; the daemons a call leaves behind have
// their own stdio, so "close" comes when the call itself is done.
import { spawn } from "node:child_process";

export interface CliCall {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs?: number;
}

export interface CliResult {
  out: string;
  ms: number;
}

export function runCli(call: CliCall): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(call.command, call.args, { env: call.env, cwd: call.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(child.pid, "SIGKILL");
    }, call.timeoutMs ?? 60_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, sig) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      if (code === 0) resolve({ out, ms });
      else reject(new Error(`${[call.command, ...call.args].join(" ")} exited ${code ?? sig}: ${(err || out).trim().slice(0, 300)}`));
    });
  });
}

/** Rejects unless the output names what the call was to read (a page title). */
export function expectText(result: CliResult, text: string): CliResult {
  if (!result.out.includes(text)) throw new Error(`expected "${text}" in the output, got: ${result.out.trim().slice(0, 200)}`);
  return result;
}
