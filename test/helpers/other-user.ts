// A second local user for attack tests: `nobody` (65534), reached with
// setpriv from the root the suite runs as. It makes folders and listens on
// unix sockets the way another user of the machine would.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const NOBODY = 65534;
export { runningAsRoot } from "./needs.js";

const AS_NOBODY = ["--reuid", String(NOBODY), "--regid", String(NOBODY), "--clear-groups"];

/** Runs a command as nobody (from /, which nobody may enter). */
export function asNobody(command: string, ...args: string[]): void {
  execFileSync("setpriv", [...AS_NOBODY, command, ...args], { cwd: "/", stdio: ["ignore", "ignore", "pipe"] });
}

/** A folder like /tmp (root's, 1777): every user may make things in it, and only rename their own. */
export function sharedTmp(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o1777);
  return dir;
}

export interface FakeListener {
  child: ChildProcess;
  /** Bytes any client sent so far. */
  received(): number;
  stop(): Promise<void>;
}

const LISTENER = `
  const net = require("node:net");
  let bytes = 0;
  const server = net.createServer((socket) => {
    socket.on("data", (chunk) => { bytes += chunk.length; process.stdout.write("bytes " + bytes + "\\n"); });
    socket.on("error", () => {});
  });
  server.listen(process.argv[1], () => process.stdout.write("ready\\n"));
  process.on("SIGTERM", () => process.exit(0));
`;

/** A listener on `socketPath` run by `uid` (nobody by default): what an attacker would bind in our place. */
export async function fakeListener(socketPath: string, asRoot = false): Promise<FakeListener> {
  const argv = ["-e", LISTENER, socketPath];
  const child = asRoot ? spawn(process.execPath, argv, { cwd: "/" }) : spawn("setpriv", [...AS_NOBODY, process.execPath, ...argv], { cwd: "/" });
  let bytes = 0;
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      for (const match of output.matchAll(/bytes (\d+)/g)) bytes = Number(match[1]);
      if (output.includes("ready")) resolve();
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the fake listener exited (${code}): ${output}`)));
  });
  return {
    child,
    received: () => bytes,
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }),
  };
}
