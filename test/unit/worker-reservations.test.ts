// What a worker reserved in the artifact store is let go when that worker
// exits without committing it (killed, crashed): otherwise it would count
// against the caps until it expired. Committed reservations are left alone.
import { describe, expect, it } from "vitest";
import { ArtifactsCommit, ArtifactsReserve } from "../../shared/protocol/methods/index.js";
import { MethodRegistry } from "../../shared/protocol/rpc.js";
import { registerWorkerMethods } from "../../daemon/methods/worker-methods.js";

function setUp() {
  const commits: { reservationId: string; discard?: boolean }[] = [];
  let next = 1;
  const daemon = {
    vault: {},
    artifacts: {
      reserve: async () => ({ reservationId: `r${next++}`, path: "/x", reservedBytes: 10, fileCapBytes: 100, evicted: [] }),
      commit: async (params: { reservationId: string; discard?: boolean }) => {
        commits.push(params);
        return params.discard ? { discarded: true } : { path: "/x", bytes: 1, evicted: [] };
      },
    },
  };
  const exitListeners: (() => void)[] = [];
  const link = { sendSocket: async () => 0, whenExited: (listener: () => void) => void exitListeners.push(listener) };
  const registry = new MethodRegistry<void>();
  registerWorkerMethods(registry, daemon as never, link);
  // The handlers as the worker's pipe reaches them (validation aside: these ids are the stand-in store's).
  const handlers = (registry as unknown as { handlers: Map<string, { handler: (p: unknown, c: void) => unknown }> }).handlers;
  const call = (decl: { name: string }, params: unknown) => Promise.resolve(handlers.get(decl.name)!.handler(params, undefined));
  return { commits, call, exit: () => exitListeners.forEach((l) => l()) };
}

describe("a worker's artifact reservations", () => {
  it("are discarded when it exits before committing them, and only those", async () => {
    const { commits, call, exit } = setUp();
    const reserve = { session: "s", runId: "00000000-0000-4000-8000-000000000000", kind: "screenshot", bytes: 10 };
    await call(ArtifactsReserve, reserve);
    await call(ArtifactsReserve, reserve);
    await call(ArtifactsCommit, { reservationId: "r1" });
    expect(commits).toEqual([{ reservationId: "r1" }]);
    exit();
    await new Promise((r) => setImmediate(r));
    expect(commits).toEqual([{ reservationId: "r1" }, { reservationId: "r2", discard: true }]);
  });
});
