// 9. Containment: what the worker's namespaces (bwrap) and the daemon's dialing
// cost. The same measurements with and without containment, interleaved in one
// run: a worker process up and answering, a first exec on a fresh home, and the
// guarded 100-subresource load. Uncontained means no bwrap on the daemon's
// PATH, as on a machine without it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Duplex } from "node:stream";
import { BetterWright } from "../../client/index.js";
import { planFor, profileWorkerDirs } from "../../daemon/supervisor/containment.js";
import { discardWorker, spawnWorker } from "../../daemon/supervisor/spawn.js";
import { probeContainment, type ContainmentStatus } from "../../shared/containment.js";
import { layoutFor } from "../../shared/paths.js";
import { WorkerPing } from "../../shared/protocol/methods/index.js";
import { RpcPeer } from "../../shared/protocol/rpc.js";
import type { BenchContext } from "../context.js";
import { compare, summarize, type Row } from "../stats.js";

const UNCONTAINED: ContainmentStatus = { active: false, reason: "measured without", fix: "" };

/** From spawn to the worker's first answer (Node started, Playwright loaded), inside bwrap or not. */
async function workerUp(home: string, containment: ContainmentStatus): Promise<number> {
  const layout = layoutFor(home);
  const t0 = performance.now();
  const spawned = spawnWorker(planFor(layout, profileWorkerDirs(layout), { explicit: null, headless: true }, containment, process.env));
  const peer = new RpcPeer<void>(spawned.child.stdio[3] as Duplex, { context: undefined });
  try {
    await peer.call(WorkerPing, {}, 30_000);
    return performance.now() - t0;
  } finally {
    peer.close();
    discardWorker(spawned);
  }
}

export async function containmentCost(ctx: BenchContext): Promise<Row[]> {
  const contained = await probeContainment({ env: process.env });
  if (!contained.active) return [{ name: `containment unavailable here (${contained.reason}): nothing to compare`, sample: summarize([0]) }];
  const runs = ctx.quick ? 3 : 20;
  const noBwrap = mkdtempSync(path.join(tmpdir(), "bw-bench-no-bwrap-"));
  try {
    // A worker process, started and answering: interleaved, one home each side.
    const upOn: number[] = [];
    const upOff: number[] = [];
    const workerHomes = [ctx.home("contain-worker-on").home, ctx.home("contain-worker-off").home];
    for (let i = 0; i < runs + 1; i++) {
      const on = await workerUp(workerHomes[0]!, contained);
      const off = await workerUp(workerHomes[1]!, UNCONTAINED);
      if (i > 0) (upOn.push(on), upOff.push(off));
    }

    // A first exec on a fresh home: daemon, worker, Chromium, one navigation.
    const firstOn: number[] = [];
    const firstOff: number[] = [];
    const code = `await page.goto(${JSON.stringify(ctx.url)}); return page.title()`;
    for (let i = 0; i < (ctx.quick ? 1 : Math.max(3, runs / 2)); i++) {
      for (const [side, times] of [["on", firstOn], ["off", firstOff]] as const) {
        const { env } = ctx.home(`contain-first-${side}-${i}`);
        const withPath = side === "off" ? { ...env, PATH: noBwrap } : env;
        const t0 = performance.now();
        await ctx.exec(withPath, "exec", "-c", code);
        times.push(performance.now() - t0);
        await ctx.exec(withPath, "close", "--all");
      }
    }

    // The guarded load of a page with 100 subresources, each on a page of its own, alternating sides.
    const heavy = `${ctx.url}/heavy`;
    const on = ctx.home("contain-load-on");
    const off = ctx.home("contain-load-off");
    const bwOn = new BetterWright({ home: on.home, env: on.env });
    const bwOff = new BetterWright({ home: off.home, env: { ...off.env, PATH: noBwrap } });
    const loadOn: number[] = [];
    const loadOff: number[] = [];
    const load = (bw: BetterWright) => bw.run(`await openPage(); await page.goto(${JSON.stringify(heavy)}, { waitUntil: "load" }); await closePage()`, { session: "g" });
    try {
      const warnings = [(await bwOn.run("return 1", { session: "g" })).warnings, (await bwOff.run("return 1", { session: "g" })).warnings];
      if (warnings[0]!.some((w) => w.code === "CONTAINMENT_UNAVAILABLE") || !warnings[1]!.some((w) => w.code === "CONTAINMENT_UNAVAILABLE")) {
        throw new Error(`the two sides are not what they claim: ${JSON.stringify(warnings)}`);
      }
      await load(bwOn);
      await load(bwOff);
      for (let i = 0; i < runs; i++) {
        for (const [bw, times] of [[bwOn, loadOn], [bwOff, loadOff]] as const) {
          const t0 = performance.now();
          const r = await load(bw);
          if (!r.ok) throw new Error(`guarded load failed: ${JSON.stringify(r.error)}`);
          times.push(performance.now() - t0);
        }
      }
    } finally {
      await bwOn.close();
      await bwOff.close();
    }

    const [wOff, fOff, gOff] = [summarize(upOff), summarize(firstOff), summarize(loadOff)];
    return [
      { name: "worker up and answering, uncontained (spawn → first RPC answer)", sample: wOff },
      compare("worker up and answering, contained (bwrap: net, mount, pid, user namespaces)", summarize(upOn), "uncontained", wOff),
      { name: "first exec on a fresh home, uncontained (daemon, worker, Chromium, goto)", sample: fOff },
      compare("first exec on a fresh home, contained", summarize(firstOn), "uncontained", fOff),
      { name: "guarded load, 100 subresources, uncontained", sample: gOff },
      compare("guarded load, 100 subresources, contained (the daemon dials, sockets cross to the worker)", summarize(loadOn), "uncontained", gOff, "≤ 1.1×"),
    ];
  } finally {
    rmSync(noBwrap, { recursive: true, force: true });
  }
}
