// The RPC layer never sends a frame its peer would drop: a reply past the
// bound becomes a LIMIT_EXCEEDED error for its id, a request past it fails
// its own call, and both ends stay usable. Two real RpcPeers over a socket pair.
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BwError } from "../../shared/protocol/errors.js";
import { declare } from "../../shared/protocol/methods/declare.js";
import { MethodRegistry, RpcPeer } from "../../shared/protocol/rpc.js";
import { custom, obj } from "../../shared/protocol/validate.js";

const Echo = declare<string>()("test.echo", obj({ size: custom((v) => Number(v)) }));
const MAX = 64 * 1024;

describe("frames this side would send", () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => cleanup.splice(0).forEach((f) => f()));

  async function pair(): Promise<{ server: RpcPeer<void>; client: RpcPeer<void>; logs: string[] }> {
    const logs: string[] = [];
    const registry = new MethodRegistry<void>().define(Echo, (p) => "x".repeat(p.size));
    const listener = net.createServer();
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", r));
    const accepted = new Promise<net.Socket>((r) => listener.once("connection", r));
    const socket = net.connect((listener.address() as net.AddressInfo).port, "127.0.0.1");
    const server = new RpcPeer<void>(await accepted, { registry, context: undefined, maxFrameBytes: MAX, log: (l) => logs.push(l) });
    const client = new RpcPeer<void>(socket, { registry, context: undefined, maxFrameBytes: MAX });
    cleanup.push(() => { client.close(); server.close(); listener.close(); });
    return { server, client, logs };
  }

  it("turns a reply past the bound into LIMIT_EXCEEDED for that call, and the next call is served", async () => {
    const { client, logs } = await pair();
    const error = await client.call(Echo, { size: MAX * 2 }, 5_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BwError);
    expect((error as BwError).code).toBe("LIMIT_EXCEEDED");
    expect((error as BwError).message).toContain(String(MAX));
    expect(logs.join("\n")).toMatch(/larger than the 65536-byte frame bound was not sent/);
    expect(await client.call(Echo, { size: 10 }, 5_000)).toBe("x".repeat(10));
  });

  it("fails a request past the bound at once instead of sending what the peer would drop", async () => {
    const { client } = await pair();
    const started = Date.now();
    const error = await client.call(Echo, { size: 1, pad: "y".repeat(MAX) } as never, 5_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BwError);
    expect((error as BwError).message).toMatch(/frame bound/);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await client.call(Echo, { size: 3 }, 5_000)).toBe("xxx");
  });
});
