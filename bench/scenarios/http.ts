// The HTTP front door: `read` and `screenshot` of a loaded page through
// `betterwright serve` (over loopback HTTP, token checked, JSON or PNG bytes
// back) next to the same operations through the library on an isolated
// 1280×800 session of the same daemon; and how many GET /sessions/:id/read
// requests per second serve answers with three sessions open.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { compare, round, summarize, timeIt, type Row } from "../stats.js";

async function startServe(ctx: BenchContext, env: NodeJS.ProcessEnv): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [ctx.cli, "serve", "--listen", "127.0.0.1:0", "--allow-host", "127.0.0.1"], { env, stdio: ["ignore", "pipe", "ignore"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!).listening);
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}`)));
  });
  return { url, stop: () => new Promise((resolve) => { child.once("exit", () => resolve()); child.kill("SIGTERM"); }) };
}

export async function httpCall(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 50 : 200;
  const { home, env: baseEnv } = ctx.home("http");
  const token = randomBytes(32).toString("base64url");
  const env = { ...baseEnv, BETTERWRIGHT_TOKEN: token };
  const served = await startServe(ctx, env);
  const bw = new BetterWright({ home, env: baseEnv });
  const headers = { authorization: `Bearer ${token}` };
  const get = async (route: string) => {
    const response = await fetch(`${served.url}${route}`, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${route}: ${response.status}`);
  };
  try {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) {
      const opened = await fetch(`${served.url}/sessions`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ id, url: ctx.url }) });
      if (opened.status !== 201) throw new Error(`open: ${opened.status} ${await opened.text()}`);
    }
    await bw.createSession("lib", { isolated: true, settings: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 } });
    await bw.op("navigate", { url: ctx.url }, { session: "lib" });
    const libRead = await timeIt(() => bw.op("read", { maxChars: 100_000 }, { session: "lib" }), runs, 5);
    const httpRead = await timeIt(() => get(`/sessions/${ids[0]}/read`), runs, 5);
    const shots = Math.max(10, Math.round(runs / 4));
    const libShot = await timeIt(() => bw.op("screenshot", { type: "png" }, { session: "lib" }), shots, 2);
    const httpShot = await timeIt(() => get(`/sessions/${ids[0]}/screenshot`), shots, 2);
    // Throughput: clients in parallel, round-robin over the three sessions, for a fixed time.
    const clients = 6;
    const durationMs = ctx.quick ? 1_500 : 10_000;
    const latencies: number[] = [];
    const until = performance.now() + durationMs;
    const started = performance.now();
    await Promise.all(Array.from({ length: clients }, async (_, c) => {
      for (let i = c; performance.now() < until; i += clients) {
        const t0 = performance.now();
        await get(`/sessions/${ids[i % ids.length]}/read`);
        latencies.push(performance.now() - t0);
      }
    }));
    const perSecond = round(latencies.length / ((performance.now() - started) / 1000), 1);
    return [
      { name: "bw.op('read')", sample: libRead },
      compare("GET /sessions/:id/read", httpRead, "bw.op('read')", libRead, "≤ 2×"),
      { name: "bw.op('screenshot') (path)", sample: libShot },
      compare("GET /sessions/:id/screenshot (PNG bytes)", httpShot, "bw.op('screenshot') (path)", libShot, "≤ 2×"),
      { name: `GET /sessions/:id/read, 3 sessions, ${clients} clients: ${perSecond} req/s`, sample: summarize(latencies), note: `${perSecond} requests/s` },
    ];
  } finally {
    await served.stop();
    await bw.close();
  }
}
