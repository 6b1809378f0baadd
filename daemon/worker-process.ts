// The daemon's handle on its worker: a child process started on the first
// call that needs a browser, spoken to over a private pipe (fd 3). If it dies,
// the next call starts a new one; callers learn what was lost.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Duplex } from "node:stream";
import { BwError } from "../shared/errors.js";
import { WorkerInitialize, WorkerShutdown, type MethodDecl, type WorkerInit } from "../shared/protocol/index.js";
import { RpcPeer, type MethodRegistry } from "../shared/rpc.js";
import { ensurePrivateDir } from "../shared/secure-fs.js";
import { spawnWorker, sweepWorkerTmp, type SpawnedWorker } from "./worker-spawn.js";

export interface WorkerProcessOptions {
  init: WorkerInit;
  /** What the worker may call on the daemon. */
  registry: MethodRegistry<void>;
  log: (line: string) => void;
  onExit: (info: { pid: number | undefined; code: number | null; signal: NodeJS.Signals | null }) => void;
  /** A process started before the profile lock was taken, still running and never initialised; otherwise one is spawned. */
  spawned?: SpawnedWorker;
}

export class WorkerProcess {
  private readonly child: ChildProcess;
  private readonly peer: RpcPeer<void>;
  private readonly started: Promise<void>;
  private exited = false;

  constructor(options: WorkerProcessOptions) {
    // Temp files (Playwright's and Chromium's) stay inside the home; a killed
    // worker's leftovers are swept when the next one starts. The profile lock,
    // held by whoever constructs this, makes Chromium's folder ours alone.
    const chromiumTmp = path.join(options.init.browserEnvDir, "tmp");
    rmSync(chromiumTmp, { recursive: true, force: true });
    mkdirSync(chromiumTmp, { recursive: true, mode: 0o700 });
    sweepWorkerTmp(options.init.browserEnvDir, options.spawned?.tmpDir);
    // A lock holder's sweep while an early worker's daemon waited for the lock may have taken its folder.
    if (options.spawned) ensurePrivateDir(options.spawned.tmpDir);
    const { child, tmpDir } = options.spawned ?? spawnWorker(options.init.browserEnvDir, process.env);
    this.child = child;
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream) createInterface({ input: stream }).on("line", (line) => options.log(line));
    }
    this.peer = new RpcPeer<void>(this.child.stdio[3] as Duplex, { registry: options.registry, context: undefined, log: options.log });
    this.child.on("exit", (code, signal) => {
      this.exited = true;
      this.peer.close();
      rmSync(tmpDir, { recursive: true, force: true });
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
