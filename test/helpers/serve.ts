// `betterwright serve` as a real process for the HTTP front door's tests: the
// built CLI on 127.0.0.1 with a port of its own, its token read from the home,
// calls over real HTTP, and a stop by SIGTERM to its pid (which saves and
// closes its sessions) or SIGKILL.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { CLI, cleanEnv, homeReady } from "./cli.js";

export interface Served {
  url: string;
  token: string;
  child: ChildProcess;
  stderr(): string;
  /** SIGTERM (or `signal`) to serve's pid; resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Buffer;
  json: any;
}

export async function startServe(home: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  await homeReady(home);
  const child = spawn(process.execPath, [CLI, "serve", "--listen", "127.0.0.1:0", ...args], { env: cleanEnv(home, env), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started = await new Promise<{ listening: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 60_000);
    child.stdout!.on("data", (d) => {
      stdout += d;
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n")) {
        clearTimeout(timer);
        try { resolve(JSON.parse(line!)); } catch { reject(new Error(`serve printed ${stdout}`)); }
      }
    });
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`serve exited ${code}: ${stderr}`)); });
  });
  const token = env.BETTERWRIGHT_TOKEN ?? readFileSync(path.join(home, "serve", "token"), "utf8").trim();
  return {
    url: started.listening,
    token,
    child,
    stderr: () => stderr,
    stop: (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** One call to the API; `token: null` sends none. JSON bodies get their content type unless `headers` say otherwise. */
export async function call(served: Served, method: string, route: string, options: { token?: string | null; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? served.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  Object.assign(headers, options.headers ?? {});
  const response = await fetch(`${served.url}${route}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  try { json = JSON.parse(bytes.toString("utf8")); } catch { json = undefined; }
  return { status: response.status, headers: response.headers, body: bytes, json };
}

/** Width and height from a PNG's IHDR. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
