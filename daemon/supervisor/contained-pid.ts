// Whether a contained worker's own Node process still runs. bwrap sits between
// the daemon and the worker (bwrap → its init, pid 1 of the namespace → the
// worker) and holds copies of the worker's pipes, so the worker's death shows
// on the daemon's side only once bwrap has noticed and exited. A call sent in
// between would go to a worker that is gone. bwrap's --info-fd names its init;
// the worker is that init's one child.
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import { isProcessAlive } from "../../shared/process-alive.js";

/** The info bwrap writes on --info-fd, read to its end (bwrap closes it once written). */
export function readInitPid(info: Readable): Promise<number | undefined> {
  return new Promise((resolve) => {
    let text = "";
    info.setEncoding("utf8");
    info.on("data", (chunk: string) => {
      // A few hundred bytes of JSON; anything longer is not bwrap's.
      if (text.length < 4096) text += chunk;
    });
    info.on("error", () => resolve(undefined));
    info.on("close", () => {
      try {
        const pid = (JSON.parse(text) as { "child-pid"?: unknown })["child-pid"];
        resolve(typeof pid === "number" && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** The pids `parent` has started and not yet lost, from /proc (undefined where that file does not exist). */
function childrenOf(parent: number): number[] | undefined {
  try {
    return readFileSync(`/proc/${parent}/task/${parent}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return undefined;
  }
}

/** Tracks the worker's own process inside bwrap once the init is known. */
export class ContainedPid {
  #init: number | undefined;
  #worker: number | undefined;

  constructor(info: Readable) {
    void readInitPid(info).then((pid) => (this.#init = pid));
  }

  /** The worker's host pid, once known. */
  get pid(): number | undefined {
    if (this.#worker === undefined && this.#init !== undefined) {
      const [first] = childrenOf(this.#init) ?? [];
      this.#worker = first;
    }
    return this.#worker;
  }

  /** Kills the worker's own process at once, not only bwrap around it (whose namespace follows a moment later). */
  kill(): void {
    const pid = this.pid;
    if (pid === undefined) return;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone already
    }
  }

  /** False once the worker's own process is known and gone; true while it runs or is not known yet. */
  alive(): boolean {
    const pid = this.pid;
    return pid === undefined || isProcessAlive(pid);
  }
}
