// Starting a daemon: detached, its settings on stdin, its stderr into its own
// log file, its readiness (or the reason it could not start) on fd 3.
import { spawn } from "node:child_process";
import { closeSync } from "node:fs";
import type { DaemonBootstrap, DaemonReadiness } from "../../shared/bootstrap.js";
import { daemonEnvironment } from "../../shared/child-env.js";
import { headerVariables, remoteUsesTls } from "../../shared/remote-config.js";
import { BwError } from "../../shared/protocol/errors.js";
import type { HomeLayout } from "../../shared/paths.js";
import { describeFsError, storageCode } from "../../shared/fs-problem.js";
import { prepareHome } from "../../shared/home-check.js";
import { openPrivateFile, readPrivateFile } from "../../shared/secure-fs.js";
import { DAEMON_MAIN } from "../daemon-code.js";

export const DAEMON_START_TIMEOUT_MS = 15_000;

function logTail(file: string, bytes = 2000): string {
  try {
    const text = readPrivateFile(file);
    return text.slice(-bytes).trim();
  } catch {
    return "";
  }
}

export async function spawnDaemon(layout: HomeLayout, bootstrap: DaemonBootstrap, env: NodeJS.ProcessEnv): Promise<DaemonReadiness> {
  let logFd: number;
  try {
    prepareHome(layout);
    logFd = openPrivateFile(layout.logPath);
  } catch (error) {
    if (error instanceof BwError) throw error;
    // A home that is no folder is a usage error; a full or read-only one is the machine's.
    const badPath = ["ENOTDIR", "EEXIST", "ENOENT", "ENAMETOOLONG", "ELOOP"].includes(storageCode(error) ?? "");
    throw new BwError(badPath ? "INVALID_ARGUMENT" : "DAEMON_UNAVAILABLE", `the daemon cannot start: ${describeFsError(error, "write", layout.logPath)}`);
  }
  // The daemon starts from an allowlist of the caller's environment (shared/child-env.ts): the caller's
  // keys and tokens (BETTERWRIGHT_TOKEN of a front door among them) stay in this process. Node parses
  // NODE_EXTRA_CA_CERTS at every start (~30 ms on a first call's path), so the bundle goes along only
  // when a remote wss:// or https endpoint makes the worker do TLS itself.
  const remote = bootstrap.settings.remote;
  const daemonEnv = daemonEnvironment(env, { tls: remoteUsesTls(remote), headerVariables: headerVariables(remote) });
  const child = spawn(process.execPath, [DAEMON_MAIN], {
    detached: true,
    stdio: ["pipe", "ignore", logFd, "pipe"],
    env: daemonEnv,
    cwd: layout.home,
  });
  closeSync(logFd);
  child.stdin!.end(`${JSON.stringify(bootstrap)}\n`);
  child.stdin!.on("error", () => {});
  const readiness = child.stdio[3] as NodeJS.ReadableStream;
  try {
    return await new Promise<DaemonReadiness>((resolve, reject) => {
      let buffer = "";
      const timer = setTimeout(() => reject(new BwError("DAEMON_UNAVAILABLE", `the daemon did not start within ${DAEMON_START_TIMEOUT_MS / 1000} s; see ${layout.logPath}`)), DAEMON_START_TIMEOUT_MS);
      readiness.on("data", (chunk: Buffer) => {
        buffer += chunk.toString("utf8");
        const newline = buffer.indexOf("\n");
        if (newline === -1) return;
        clearTimeout(timer);
        try {
          resolve(JSON.parse(buffer.slice(0, newline)) as DaemonReadiness);
        } catch {
          reject(new BwError("DAEMON_UNAVAILABLE", "the daemon sent a malformed readiness line"));
        }
      });
      // "close", not "exit": exit may come before the readiness line on fd 3 has been read.
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        const tail = logTail(layout.logPath);
        reject(new BwError("DAEMON_UNAVAILABLE", `the daemon exited during start-up (code ${code}, signal ${signal})${tail ? `:\n${tail}` : ""}`));
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(new BwError("DAEMON_UNAVAILABLE", `cannot start the daemon: ${error.message}`));
      });
    });
  } finally {
    child.removeAllListeners("close");
    (readiness as unknown as { destroy(): void }).destroy();
    child.unref();
  }
}
