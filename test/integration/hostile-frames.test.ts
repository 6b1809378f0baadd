// Hostile input against the two JSON-RPC readers: a real daemon's socket and
// a real worker's fd-3 pipe. 10,000 seeded random and malformed frames each,
// plus reader bombs (depth, size), torn lines, many connections at once and a
// client that never reads. Each frame gets exactly what JSON-RPC 2.0 owes it,
// the process stays up with bounded memory, and a valid request is served
// afterwards. No browser is started.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isErrorCode } from "../../shared/protocol/errors.js";
import { MAX_FRAME_BYTES } from "../../shared/protocol/framing.js";
import { layoutFor } from "../../shared/paths.js";
import { PACKAGE_VERSION, PROTOCOL_VERSION } from "../../shared/version.js";
import { startIdleDaemon } from "../helpers/idle-daemon.js";
import { destroyHome } from "../helpers/cli.js";
import { hostileFrame, readerBombs, type HostileFrame } from "../helpers/hostile-frames.js";
import { fdCount, mib, MiB, rssBytes } from "../helpers/proc-stats.js";
import { alive } from "../helpers/procs.js";
import { RawConnection, type RawReply } from "../helpers/raw-rpc.js";
import { SeededRng } from "../helpers/seeded-rng.js";

const SEED = 0x5eed_0009;
const FRAMES = 10_000;
const CONNECTIONS = 50;
/** Growth of resident memory allowed across the whole barrage (the reader holds at most one 8 MiB frame per connection at a time). */
const RSS_GROWTH_BOUND = 192 * MiB;

const WORKER_MAIN = fileURLToPath(new URL("../../dist/daemon/browser-worker/main.js", import.meta.url));

function counterFrom(start: number): () => number {
  let next = start;
  return () => next++;
}

function describeFrame(frame: HostileFrame): string {
  return `${frame.category} frame ${JSON.stringify(frame.bytes.subarray(0, 160).toString("utf8"))}${frame.bytes.length > 160 ? ` (${frame.bytes.length} bytes)` : ""}`;
}

/** Checks one reply against what the frame was owed. */
function checkReply(frame: HostileFrame, reply: RawReply): void {
  const where = describeFrame(frame);
  expect(reply.jsonrpc, where).toBe("2.0");
  if (frame.expect.kind === "refused") {
    expect(reply.id, where).toBe(frame.expect.id);
    expect(reply.error?.code, where).toBe(frame.expect.rpcCode);
    expect(reply.error?.data?.code, where).toBe("INVALID_ARGUMENT");
  } else if (frame.expect.kind === "reply") {
    expect(reply.id, where).toEqual(frame.expect.id);
    expect((reply.result === undefined) !== (reply.error === undefined), `${where}: exactly one of result and error`).toBe(true);
  }
  if (reply.error) {
    expect(isErrorCode(reply.error.data?.code), `${where}: stable error code, got ${JSON.stringify(reply.error).slice(0, 300)}`).toBe(true);
    expect(typeof reply.error.message, where).toBe("string");
    // Errors name what was wrong; they never echo a whole hostile frame back.
    expect(reply.error.message.length, where).toBeLessThan(1000);
    expect(reply.error.message, where).not.toMatch(/\n\s+at /);
  }
}

/** Writes each frame and waits for what it is owed; a stray reply shows up as a mismatch on the next one. */
async function drive(connection: RawConnection, frames: HostileFrame[], sentinel: () => Promise<void>, tally: Map<string, number>, replyMs = 5_000): Promise<void> {
  for (const frame of frames) {
    await connection.write(frame.bytes);
    tally.set(frame.category, (tally.get(frame.category) ?? 0) + 1);
    if (frame.expect.kind === "none") continue;
    let reply: RawReply;
    try {
      reply = await connection.next(replyMs);
    } catch (error) {
      throw new Error(`${describeFrame(frame)}: ${(error as Error).message}`);
    }
    checkReply(frame, reply);
  }
  // Nothing owed is still in flight, and nothing unowed came back.
  await sentinel();
  expect(connection.pending).toBe(0);
}

function summarize(tally: Map<string, number>): string {
  return [...tally.entries()].sort().map(([k, v]) => `${k}=${v}`).join(" ");
}

describe("hostile frames against a real daemon's socket", () => {
  let home: string;
  let socketPath: string;
  let pid: number;

  beforeAll(async () => {
    ({ home, socketPath, pid } = await startIdleDaemon("bw-hostile-"));
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  async function greeted(): Promise<RawConnection> {
    const connection = await RawConnection.open(socketPath);
    const hello = await connection.request("hello", "daemon.hello", { clientVersion: PACKAGE_VERSION, protocol: PROTOCOL_VERSION, settings: {} });
    expect(hello.result?.status).toBe("ok");
    return connection;
  }

  async function serves(connection: RawConnection, id: string | number = "sentinel"): Promise<void> {
    const status = await connection.request(id, "daemon.status");
    expect(status.error).toBeUndefined();
    expect(status.result.pid).toBe(pid);
  }

  it(`answers ${FRAMES} seeded random frames over ${CONNECTIONS} connections exactly as JSON-RPC 2.0 requires, and keeps serving`, async () => {
    const rssBefore = rssBytes(pid)!;
    const fdsBefore = fdCount(pid)!;
    const tally = new Map<string, number>();
    const guarded = ["daemon.hello", "daemon.shutdown", "session.exec"];
    const started = Date.now();
    await Promise.all(Array.from({ length: CONNECTIONS }, async (_, c) => {
      const rng = new SeededRng(SEED + c);
      const counter = counterFrom(1_000_000 * (c + 1));
      const frames = Array.from({ length: FRAMES / CONNECTIONS }, () => hostileFrame(rng, { guarded, counter }));
      // Half the connections never say hello: every method but daemon.hello is refused there.
      const connection = c % 2 === 0 ? await greeted() : await RawConnection.open(socketPath);
      try {
        await drive(connection, frames, async () => {
          const reply = await connection.request(`end-${c}`, "session.list");
          expect(reply.error?.data?.code ?? "ok").toMatch(c % 2 === 0 ? /^ok$/ : /^INVALID_ARGUMENT$/);
        }, tally);
      } finally {
        connection.close();
      }
    }));
    const elapsed = Date.now() - started;
    expect(alive(pid)).toBe(true);
    const connection = await greeted();
    await serves(connection);
    connection.close();
    await new Promise((r) => setTimeout(r, 200));
    const rssAfter = rssBytes(pid)!;
    console.info(`hostile frames (daemon): ${FRAMES} in ${elapsed} ms; ${summarize(tally)}; RSS ${mib(rssBefore)} → ${mib(rssAfter)}; fds ${fdsBefore} → ${fdCount(pid)}`);
    expect(rssAfter - rssBefore).toBeLessThan(RSS_GROWTH_BOUND);
    expect(fdCount(pid)).toBeLessThanOrEqual(fdsBefore + 2);
  });

  it("refuses depth bombs and lines past the size bound quickly, on one connection that stays usable", async () => {
    const connection = await greeted();
    try {
      const tally = new Map<string, number>();
      const bombs = readerBombs(counterFrom(1), MAX_FRAME_BYTES);
      for (const bomb of bombs) {
        const t0 = Date.now();
        await drive(connection, [bomb], () => serves(connection, `after-${bomb.category}`), tally, 15_000);
        // A bomb must not hold the event loop: the depth scan runs before any parse.
        expect(Date.now() - t0, bomb.category).toBeLessThan(5_000);
      }
      expect(alive(pid)).toBe(true);
    } finally {
      connection.close();
    }
  });

  it("survives many connections at once: torn lines then disconnect, half-sent megabytes, and a client that never reads", async () => {
    const rssBefore = rssBytes(pid)!;
    const fdsBefore = fdCount(pid)!;
    // 200 connections at once, each leaving a torn line of up to 1 MiB and vanishing.
    const rng = new SeededRng(SEED ^ 0xabc);
    await Promise.all(Array.from({ length: 200 }, async (_, i) => {
      const connection = await RawConnection.open(socketPath);
      const torn = i % 3 === 0 ? '{"jsonrpc":"2.0","id":1,"method":"daemon.he' : i % 3 === 1 ? rng.bytes(rng.int(1, 4096)).toString("latin1").replace(/\n/g, " ") : "x".repeat(MiB);
      await connection.write(torn);
      connection.close();
    }));
    // A client that pipelines requests and never reads a reply: its backlog is bounded by the daemon.
    const flood = await greeted();
    flood.stream.pause();
    const line = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "daemon.status" })}\n`;
    const burst = line.repeat(10_000);
    let sent = 0;
    let rssPeak = rssBefore;
    for (let i = 0; i < 40 && !flood.closed; i++) {
      await Promise.race([flood.write(burst), new Promise((r) => setTimeout(r, 1_000))]);
      sent += 10_000;
      rssPeak = Math.max(rssPeak, rssBytes(pid)!);
    }
    await new Promise((r) => setTimeout(r, 500));
    rssPeak = Math.max(rssPeak, rssBytes(pid)!);
    // The daemon cut the non-reader off once its unread replies passed the bound.
    expect(flood.closed, `still connected after ${sent} unread requests`).toBe(true);
    expect(readFileSync(layoutFor(home).logPath, "utf8")).toMatch(/connection dropped: \d+ bytes of replies unread/);
    flood.close();
    await new Promise((r) => setTimeout(r, 500));

    expect(alive(pid)).toBe(true);
    const fresh = await greeted();
    await serves(fresh);
    fresh.close();
    await new Promise((r) => setTimeout(r, 300));
    const rssAfter = rssBytes(pid)!;
    console.info(`many connections: 200 torn, flood cut off after ${sent} unread requests; RSS ${mib(rssBefore)} → peak ${mib(rssPeak)} → ${mib(rssAfter)}; fds ${fdsBefore} → ${fdCount(pid)}`);
    expect(rssPeak - rssBefore).toBeLessThan(RSS_GROWTH_BOUND);
    // Every connection's descriptor was released.
    expect(fdCount(pid)).toBeLessThanOrEqual(fdsBefore + 2);
  });
});

describe("hostile frames against a real worker's pipe (from the daemon's side)", () => {
  let child: ChildProcess;
  let pipe: RawConnection;
  const log: string[] = [];

  beforeAll(() => {
    child = spawn(process.execPath, ["--experimental-vm-modules", "--disable-warning=ExperimentalWarning", WORKER_MAIN], { stdio: ["ignore", "pipe", "pipe", "pipe"] });
    // The worker logs to stderr synchronously: a pipe nobody drains would stall it.
    for (const stream of [child.stdout!, child.stderr!]) stream.on("data", (d: Buffer) => { if (log.length < 1000) log.push(d.toString("utf8")); });
    pipe = new RawConnection(child.stdio[3] as Duplex);
  });

  afterAll(async () => {
    pipe?.close();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
  });

  async function pings(id: string): Promise<void> {
    const reply = await pipe.request(id, "worker.ping", {});
    expect(reply.error).toBeUndefined();
    expect(typeof reply.result.now).toBe("number");
    expect(reply.result.browser.running).toBe(false);
  }

  it(`answers ${FRAMES} seeded random frames and the reader bombs, then a valid worker.ping`, async () => {
    await pings("first");
    const rssBefore = rssBytes(child.pid!)!;
    const rng = new SeededRng(SEED ^ 0x3);
    const counter = counterFrom(1);
    // Valid worker.init would launch a browser, shutdown would end the worker: their params are always refused.
    const guarded = ["worker.init", "worker.shutdown", "worker.run"];
    const frames = Array.from({ length: FRAMES }, () => hostileFrame(rng, { guarded, counter }));
    const tally = new Map<string, number>();
    const started = Date.now();
    await drive(pipe, frames, () => pings("after-random"), tally).catch((error: Error) => {
      throw new Error(`${error.message}\nworker log:\n${log.join("").slice(-3000)}`);
    });
    for (const bomb of readerBombs(counter, MAX_FRAME_BYTES)) {
      await drive(pipe, [bomb], () => pings(`after-${bomb.category}`), tally, 15_000);
    }
    // A torn line, then a valid request on the next line: the torn part is refused, the request served.
    await pipe.write('{"jsonrpc":"2.0","id":1,"method":"worker.pi');
    await pipe.write("\n");
    expect((await pipe.next()).error?.code).toBe(-32700);
    await pings("last");
    const rssAfter = rssBytes(child.pid!)!;
    console.info(`hostile frames (worker pipe): ${FRAMES} + bombs in ${Date.now() - started} ms; ${summarize(tally)}; RSS ${mib(rssBefore)} → ${mib(rssAfter)}`);
    expect(child.exitCode).toBeNull();
    expect(rssAfter - rssBefore).toBeLessThan(RSS_GROWTH_BOUND);
  });
});
