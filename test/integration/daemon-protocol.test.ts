// A real daemon over its raw unix socket: every bad frame gets a JSON-RPC
// error with a stable code, and the daemon keeps serving, on that connection
// and on new ones. None of this needs (or starts) a browser.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { MAX_FRAME_BYTES } from "../../shared/protocol/framing.js";
import { layoutFor } from "../../shared/paths.js";
import { PROTOCOL_VERSION } from "../../shared/version.js";
import { startIdleDaemon } from "../helpers/idle-daemon.js";
import { cleanEnv, daemonPids, destroyHome, tempHome } from "../helpers/cli.js";
import { alive, waitForExit } from "../helpers/procs.js";
import { RawConnection, type Reply } from "../helpers/raw-socket.js";

describe("the daemon's socket protocol", () => {
  let home: string;
  let socketPath: string;
  let pid: number;

  beforeAll(async () => {
    ({ home, socketPath, pid } = await startIdleDaemon("bw-protocol-"));
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  /** The connection still serves: a valid request gets its result. */
  async function stillServes(connection: RawConnection): Promise<void> {
    const status = await connection.call("daemon.status");
    expect(status.error).toBeUndefined();
    expect(status.result.pid).toBe(pid);
  }

  const expectRefusal = (reply: Reply, rpcCode?: number) => {
    expect(reply.jsonrpc).toBe("2.0");
    expect(reply.result).toBeUndefined();
    expect(reply.error).toBeDefined();
    if (rpcCode !== undefined) expect(reply.error!.code).toBe(rpcCode);
    expect(reply.error!.data).toMatchObject({ code: "INVALID_ARGUMENT", retryable: false });
  };

  /** A connection that has said daemon.hello, closed after `body`. */
  async function greeted(body: (connection: RawConnection) => Promise<void>): Promise<void> {
    const connection = await RawConnection.open(socketPath);
    try {
      await connection.hello();
      await body(connection);
    } finally {
      connection.close();
    }
  }

  it("refuses any method before daemon.hello, then serves once greeted", async () => {
    const connection = await RawConnection.open(socketPath);
    try {
      const early = await connection.call("daemon.status");
      expectRefusal(early);
      expect(early.error!.message).toContain("daemon.hello");
      const hello = await connection.hello();
      expect(hello.result).toMatchObject({ status: "ok", daemon: { pid, protocol: PROTOCOL_VERSION } });
      await stillServes(connection);
    } finally {
      connection.close();
    }
  });

  it("answers every kind of bad frame with a JSON-RPC error and keeps the connection usable", async () => {
    await greeted(async (connection) => {
      const bad: [string, string | Buffer, number][] = [
        ["malformed JSON", '{"jsonrpc":"2.0","id":1,"method":\n', -32700],
        ["binary garbage", Buffer.concat([Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x1b, 0x7f]), Buffer.from("\u0000\u00ff"), Buffer.from("\n")]), -32700],
        ["a JSON array", "[1,2,3]\n", -32600],
        ["a bare number", "42\n", -32600],
        ["neither request nor response", '{"jsonrpc":"2.0","id":7}\n', -32600],
        ["the wrong jsonrpc version", '{"jsonrpc":"1.0","id":8,"method":"daemon.status"}\n', -32600],
        ["params that are not an object", '{"jsonrpc":"2.0","id":9,"method":"daemon.status","params":"x"}\n', -32600],
      ];
      for (const [, frame, code] of bad) {
        connection.write(frame);
        const reply = await connection.next();
        expectRefusal(reply, code);
        await stillServes(connection);
      }
    });
  });

  it("discards a frame over the size limit before parsing it, and the connection goes on", async () => {
    await greeted(async (connection) => {
      const huge = Buffer.alloc(MAX_FRAME_BYTES + 1024, 0x61);
      connection.write(huge);
      connection.write("\n");
      const reply = await connection.next(15_000);
      expectRefusal(reply, -32600);
      expect(reply.error!.message).toContain(String(MAX_FRAME_BYTES));
      await stillServes(connection);
    });
  });

  it("refuses unknown methods and wrong parameter types with INVALID_ARGUMENT, without starting a browser", async () => {
    await greeted(async (connection) => {
      const unknown = await connection.call("session.nope", {});
      expectRefusal(unknown, -32601);
      await stillServes(connection);

      const cases: [string, unknown][] = [
        ["session.exec", { session: 5, code: "return 1" }],
        ["session.exec", { session: "s", code: ["return 1"] }],
        ["session.exec", { session: "s", code: "return 1", timeoutMs: "soon" }],
        ["session.exec", { session: "../x", code: "return 1" }],
        ["session.exec", { session: "s", code: "return 1", surprise: true }],
        ["session.exec", [1, 2]],
        ["session.close", {}],
        ["run.attach", { runId: "not a run id!" }],
        ["daemon.hello", { clientVersion: 1, protocol: "one", settings: {} }],
      ];
      for (const [method, params] of cases) {
        const reply = await connection.call(method, params);
        expectRefusal(reply);
        await stillServes(connection);
      }
      const status = await connection.call("daemon.status");
      expect(status.result.browser.running).toBe(false);
      expect(status.result.sessions).toEqual([]);
    });
  });

  it("survives a partial line followed by a disconnect, and serves the next connection", async () => {
    const torn = await RawConnection.open(socketPath);
    torn.write('{"jsonrpc":"2.0","id":1,"method":"daemon.he');
    await new Promise((r) => setTimeout(r, 100));
    torn.close();
    const garbageOnly = await RawConnection.open(socketPath);
    garbageOnly.write(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
    garbageOnly.stream.end();

    const fresh = await RawConnection.open(socketPath);
    try {
      expect((await fresh.hello()).result.status).toBe("ok");
      await stillServes(fresh);
    } finally {
      fresh.close();
    }
    expect(alive(pid)).toBe(true);
  });

  it("lets an inspecting client of another version look without replacing, and an idle daemon is replaced by a new version", async () => {
    const looking = await RawConnection.open(socketPath);
    try {
      const inspect = await looking.call("daemon.hello", { clientVersion: "0.0.0-other", protocol: PROTOCOL_VERSION, settings: {}, inspect: true });
      expect(inspect.result).toMatchObject({ status: "ok" });
    } finally {
      looking.close();
    }
    expect(alive(pid)).toBe(true);

    const newer = await RawConnection.open(socketPath);
    try {
      const hello = await newer.hello("0.0.0-other");
      expect(hello.result).toMatchObject({ status: "replacing", daemon: { pid } });
      expect(hello.result.reason).toContain("0.0.0-other");
    } finally {
      newer.close();
    }
    expect(await waitForExit([pid], 12_000)).toEqual([]);
    expect(existsSync(socketPath)).toBe(false);
    expect(existsSync(layoutFor(home).infoPath)).toBe(false);
  });
});

describe("an idle daemon's lifecycle", () => {
  const homes: string[] = [];
  afterAll(async () => {
    for (const home of homes) await destroyHome(home);
  });

  async function startDaemon(env: NodeJS.ProcessEnv = {}): Promise<{ home: string; pid: number }> {
    const home = tempHome("bw-lifecycle-");
    homes.push(home);
    const bw = new BetterWright({ home, env: cleanEnv(home, env) });
    await bw.sessions();
    await bw.close();
    const [pid] = daemonPids(home) as [number];
    expect(alive(pid)).toBe(true);
    return { home, pid };
  }

  const leftovers = (home: string) => {
    const layout = layoutFor(home);
    return [layout.socketPath, layout.infoPath, layout.profileLockPath].filter((file) => existsSync(file));
  };

  it("exits on its own once it has had no session for BETTERWRIGHT_DAEMON_IDLE_SECONDS, removing its socket, info file and lock", async () => {
    const { home, pid } = await startDaemon({ BETTERWRIGHT_DAEMON_IDLE_SECONDS: "1" });
    expect(await waitForExit([pid], 6_000)).toEqual([]);
    expect(leftovers(home)).toEqual([]);
  });

  it("stops cleanly on SIGTERM", async () => {
    const { home, pid } = await startDaemon();
    process.kill(pid, "SIGTERM");
    expect(await waitForExit([pid], 10_000)).toEqual([]);
    expect(leftovers(home)).toEqual([]);
  });
});
