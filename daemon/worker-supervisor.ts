// Keeps at most one worker alive and starts it on demand. Service calls never
// come here, so they never launch a browser.
import type { WorkerInit } from "../shared/protocol/index.js";
import type { MethodRegistry } from "../shared/rpc.js";
import { WorkerProcess } from "./worker-process.js";

export class WorkerSupervisor {
  private worker: WorkerProcess | undefined;

  constructor(
    private readonly init: WorkerInit,
    private readonly registry: MethodRegistry<void>,
    private readonly log: (line: string) => void,
  ) {}

  async ensure(): Promise<WorkerProcess> {
    if (this.worker?.alive) return this.worker;
    const worker = new WorkerProcess({
      init: this.init,
      registry: this.registry,
      log: this.log,
      onExit: ({ pid, code, signal }) => {
        this.log(`worker ${pid} exited (code ${code}, signal ${signal})`);
        if (this.worker === worker) this.worker = undefined;
      },
    });
    this.worker = worker;
    this.log(`worker ${worker.pid} started`);
    return worker;
  }

  current(): WorkerProcess | undefined {
    return this.worker?.alive ? this.worker : undefined;
  }

  async shutdown(deadlineMs: number): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.shutdown(deadlineMs);
  }
}
