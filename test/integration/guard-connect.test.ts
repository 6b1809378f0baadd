// guard.connect, the daemon's side of the worker's proxy: the guard service
// decides (the name, then every address it resolves to) and dials only an
// allowed literal; the worker's side matches each socket handed over with the
// answer that names it. The dialer connects only to loopback and records every
// address it is asked for, so nothing can leave the machine.
import { fork } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, Socket, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GuardService } from "../../daemon/guard/guard-service.js";
import { WorkerProcess } from "../../daemon/supervisor/process.js";
import { connectThroughDaemon, SocketInbox, type DaemonCaller } from "../../daemon/browser-worker/guard/proxy/daemon-connect.js";
import type { PolicySettings } from "../../shared/config.js";
import { NetworkPolicy } from "../../shared/guard/policy/index.js";
import { GUARD_SOCKET_MESSAGE, GuardConnect, type GuardConnectResult, type WorkerInit } from "../../shared/protocol/methods/index.js";
import { MethodRegistry } from "../../shared/protocol/rpc.js";
import { recordingDialer } from "../helpers/guard-proxy-harness.js";

const METADATA = "169.254.169.254";
const OPEN: PolicySettings = { allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: [] };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The harness's loopback-only recording dialer; what it connects is closed after each test. */
function recordingDial() {
  const dialer = recordingDialer();
  const dial = (address: string, port: number): Socket => {
    const socket = dialer.dial(address, port);
    cleanups.push(() => socket.destroy());
    return socket;
  };
  return { asked: dialer.asked, dial };
}

async function echoServer(): Promise<number> {
  const server: Server = createServer((socket) => {
    socket.on("error", () => {});
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => server.close());
  return (server.address() as AddressInfo).port;
}

describe("GuardService.connect: the daemon decides and dials", () => {
  it("dials the checked literal of an allowed name and returns the connected socket", async () => {
    const port = await echoServer();
    const { asked, dial } = recordingDial();
    const service = new GuardService(OPEN, { dial, resolve: async () => ["127.0.0.1"] });
    const outcome = await service.connect("echo.test", port);
    expect(outcome).toMatchObject({ kind: "connected", address: "127.0.0.1", checks: 2 });
    expect(asked).toEqual(["127.0.0.1"]);
    expect(service.counts).toEqual({ checks: 2, denied: 0, connects: 1 });
  });

  it("never dials an address the name resolves to that the policy refuses (DNS rebinding to the metadata address)", async () => {
    const { asked, dial } = recordingDial();
    const service = new GuardService({ ...OPEN, allowHosts: ["rebind.test"] }, { dial, resolve: async () => ["127.0.0.1", METADATA] });
    const outcome = await service.connect("rebind.test", 80);
    expect(outcome).toMatchObject({ kind: "refused", refusal: "denied" });
    expect(outcome.kind === "refused" && outcome.reason).toMatch(/resolved to 169\.254\.169\.254/);
    expect(asked).toEqual([]);
  });

  it("refuses the metadata address and a hardened policy's loopback before resolving or dialling anything", async () => {
    const resolved: string[] = [];
    const { asked, dial } = recordingDial();
    const service = new GuardService({ ...OPEN, allowLoopback: false, allowPrivateNetwork: false }, { dial, resolve: async (host) => (resolved.push(host), ["127.0.0.1"]) });
    for (const host of [METADATA, "metadata.google.internal", "127.0.0.1", "localhost"]) {
      expect(await service.connect(host, 80)).toMatchObject({ kind: "refused", refusal: "denied" });
    }
    expect(resolved).toEqual([]);
    expect(asked).toEqual([]);
  });

  it("asks a policy with a hook about every connection, by name and by address (nothing cached)", async () => {
    const port = await echoServer();
    const hooked: string[] = [];
    const { dial } = recordingDial();
    const service = new GuardService(new NetworkPolicy({ custom: (url) => (hooked.push(url), null) }), { dial, resolve: async () => ["127.0.0.1"] });
    for (let i = 0; i < 3; i++) expect((await service.connect("echo.test", port)).kind).toBe("connected");
    expect(hooked).toEqual(Array.from({ length: 3 }, () => [`http://echo.test:${port}/`, `http://127.0.0.1:${port}/`]).flat());
  });

  it("says why when the name does not resolve or the port is closed", async () => {
    const { dial } = recordingDial();
    const service = new GuardService(OPEN, { dial, resolve: async () => { throw new Error("ENOTFOUND"); } });
    expect(await service.connect("nowhere.test", 80)).toMatchObject({ kind: "refused", refusal: "dns" });
    const closed = await echoServer();
    cleanups.splice(0).forEach((c) => c());
    expect(await new GuardService(OPEN, { dial }).connect("127.0.0.1", closed)).toMatchObject({ kind: "refused", refusal: "refused" });
  });
});

describe("the worker's side: sockets matched with the answers that name them", () => {
  async function connectedSocket(): Promise<Socket> {
    const port = await echoServer();
    const socket = connect({ host: "127.0.0.1", port });
    cleanups.push(() => socket.destroy());
    await new Promise((resolve) => socket.once("connect", resolve));
    return socket;
  }

  it("hands over a socket whichever comes first, its answer or itself", async () => {
    const inbox = new SocketInbox(1_000);
    const early = await connectedSocket();
    inbox.receive({ type: GUARD_SOCKET_MESSAGE, ticket: 1 }, early);
    expect(await inbox.take(1)).toBe(early);
    const late = await connectedSocket();
    const taking = inbox.take(2);
    inbox.receive({ type: GUARD_SOCKET_MESSAGE, ticket: 2 }, late);
    expect(await taking).toBe(late);
  });

  it("closes a socket nobody claims, and one that comes with no ticket or a ticket already held", async () => {
    const inbox = new SocketInbox(50);
    const unclaimed = await connectedSocket();
    inbox.receive({ type: GUARD_SOCKET_MESSAGE, ticket: 7 }, unclaimed);
    const stray = await connectedSocket();
    inbox.receive({ type: "something else" }, stray);
    const twin = await connectedSocket();
    inbox.receive({ type: GUARD_SOCKET_MESSAGE, ticket: 7 }, twin);
    expect(stray.destroyed).toBe(true);
    expect(twin.destroyed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unclaimed.destroyed).toBe(true);
    expect(await inbox.take(7)).toBeUndefined();
  });

  it("turns the daemon's answers into the proxy's outcomes, and drops a socket whose client left meanwhile", async () => {
    const channel = new EventEmitter();
    const answers: GuardConnectResult[] = [
      { connected: false, refusal: "denied", reason: "no", checks: 1 },
      { connected: true, ticket: 1, address: "127.0.0.1", checks: 2 },
      { connected: true, ticket: 2, address: "127.0.0.1", checks: 2 },
    ];
    const asked: unknown[] = [];
    const daemon: DaemonCaller = {
      call: async (decl, params) => {
        expect(decl.name).toBe(GuardConnect.name);
        asked.push(params);
        return answers.shift() as never;
      },
    };
    const connectUpstream = connectThroughDaemon(daemon, channel);
    const live = new AbortController();
    expect(await connectUpstream("blocked.test", 80, live.signal)).toEqual({ kind: "refused", refusal: "denied", reason: "no", checks: 1 });
    const first = await connectedSocket();
    channel.emit("message", { type: GUARD_SOCKET_MESSAGE, ticket: 1 }, first);
    expect(await connectUpstream("echo.test", 1, live.signal)).toMatchObject({ kind: "connected", socket: first, address: "127.0.0.1" });
    const gone = new AbortController();
    gone.abort();
    const second = await connectedSocket();
    channel.emit("message", { type: GUARD_SOCKET_MESSAGE, ticket: 2 }, second);
    expect(await connectUpstream("echo.test", 1, gone.signal)).toMatchObject({ kind: "aborted" });
    expect(second.destroyed).toBe(true);
    expect(asked).toEqual([{ host: "blocked.test", port: 80 }, { host: "echo.test", port: 1 }, { host: "echo.test", port: 1 }]);
  });
});

describe("the handover: the daemon's copy of a socket it passed to the worker", () => {
  /** A real WorkerProcess around a stand-in worker (fixtures/stand-in-worker.mjs) that reports what each socket carried. */
  function standInWorker() {
    const dir = mkdtempSync(path.join(tmpdir(), "bw-handover-"));
    const child = fork(new URL("./fixtures/stand-in-worker.mjs", import.meta.url), [], { stdio: ["ignore", "pipe", "pipe", "pipe", "ipc"] });
    const init = { browser: null, headless: true, profileDir: dir, browserEnvDir: dir, artifactsDir: dir } satisfies WorkerInit;
    const link = new WorkerProcess({
      init,
      registry: () => new MethodRegistry<void>(),
      spawn: () => ({ child, tmpDir: path.join(dir, "worker-tmp"), contained: false }),
      log: () => {},
      onExit: () => {},
    });
    cleanups.push(() => {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });
    const report = new Promise<{ received: string; ended: boolean }>((resolve) => child.on("message", (m: { received?: unknown }) => void (typeof m?.received === "string" && resolve(m as never))));
    return { child, link, report };
  }

  it("is never read: an answer that comes before the worker has taken the socket still reaches the worker, whole", async () => {
    // The upstream answers once the socket is on its way, and the worker is too busy to take it yet: on a
    // loaded machine, a response that arrives before the daemon has closed its own copy of the socket.
    const response = "HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello";
    const server: Server = createServer((socket) => {
      socket.on("error", () => {});
      setTimeout(() => socket.end(response), 200);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => server.close());
    const worker = standInWorker();
    const outcome = await new GuardService(OPEN).connect("127.0.0.1", (server.address() as AddressInfo).port);
    if (outcome.kind !== "connected") throw new Error(`not connected: ${JSON.stringify(outcome)}`);
    worker.child.send({ stallMs: 1_000 });
    await worker.link.sendSocket(outcome.socket);
    expect(await worker.report).toEqual({ received: response, ended: true });
  });
});
