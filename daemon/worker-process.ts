// The daemon's handle on its worker: a child process started on the first
// call that needs a browser, spoken to over a private pipe (fd 3). If it dies,
// the next call starts a new one; callers learn what was lost.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { BwError } from "../shared/errors.js";
import { WorkerInitialize, WorkerShutdown, type MethodDecl, type WorkerInit } from "../shared/protocol/index.js";
import { RpcPeer, type MethodRegistry } from "../shared/rpc.js";

const WORKER_MAIN = fileURLToPath(new URL("./worker/main.js", import.meta.url));

export interface WorkerProcessOptions {
  init: WorkerInit;
  /** What the worker may call on the daemon. */
  registry: MethodRegistry<void>;
  log: (line: string) => void;
  onExit: (info: { pid: number | undefined; code: number | null; signal: NodeJS.Signals | null }) => void;
}

export class WorkerProcess {
  private readonly child: ChildProcess;
  private readonly peer: RpcPeer<void>;
  private readonly started: Promise<void>;
  private exited = false;

  constructor(options: WorkerProcessOptions) {
    // Node 20 needs the flag for importModuleDynamically on vm.Script.
    // Temp files (Playwright's and Chromium's) stay inside the home; a killed
    // worker's leftovers are swept when the next one starts. The profile lock
    // makes this folder ours alone.
    const tmp = path.join(options.init.browserEnvDir, "tmp");
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true, mode: 0o700 });
    this.child = spawn(process.execPath, ["--experimental-vm-modules", "--disable-warning=ExperimentalWarning", WORKER_MAIN], {
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      env: { ...process.env, TMPDIR: tmp },
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream) createInterface({ input: stream }).on("line", (line) => options.log(line));
    }
    this.peer = new RpcPeer<void>(this.child.stdio[3] as Duplex, { registry: options.registry, context: undefined, log: options.log });
    this.child.on("exit", (code, signal) => {
      this.exited = true;
      this.peer.close();
      options.onExit({ pid: this.child.pid, code, signal });
    });
    this.child.on("error", (error) => options.log(`worker spawn error: ${error.message}`));
    this.started = this.peer.call(WorkerInitialize, options.init).then(() => undefined);
    this.started.catch(() => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  async call<P, R>(decl: MethodDecl<P, R>, params: P, timeoutMs?: number): Promise<R> {
    try {
      await this.started;
      return await this.peer.call(decl, params, timeoutMs);
    } catch (error) {
      if (this.exited || (error instanceof BwError && error.code === "DAEMON_UNAVAILABLE")) {
        throw new BwError("SESSION_RESET", "the worker stopped during the call; the session's pages were lost", { retryable: false });
      }
      throw error;
    }
  }

  kill(): void {
    if (!this.exited) this.child.kill("SIGKILL");
  }

  async shutdown(deadlineMs: number): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    await this.peer.call(WorkerShutdown, {}, deadlineMs).catch(() => {});
    const timer = setTimeout(() => this.kill(), deadlineMs);
    await gone;
    clearTimeout(timer);
  }
}
