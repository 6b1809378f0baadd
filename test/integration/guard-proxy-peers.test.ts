// The guard proxy serves only its own user. Another local user (nobody, through
// setpriv) connecting to the real proxy is closed unanswered: no byte back, no
// policy question, no blocked entry, nothing dialled. The same client run as the
// owner is served. The worker's guard (BrowserGuard) is wired to the daemon's
// real policy service; the browser is not the point, so no Chromium is started.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { GuardService } from "../../daemon/guard/guard-service.js";
import { BrowserGuard, type GuardAskFn } from "../../daemon/browser-worker/guard/browser-guard.js";
import type { BlockedRequest } from "../../shared/protocol/envelope.js";
import { recordingDialer } from "../helpers/guard-proxy-harness.js";
import { describeNeeding, NEEDS_ROOT } from "../helpers/needs.js";

const NOBODY = 65534;
const SETPRIV = "/usr/bin/setpriv";
const cannotSwitchUser = process.getuid?.() !== 0 ? NEEDS_ROOT : existsSync(SETPRIV) ? undefined : `${SETPRIV} is missing`;

/**
 * A SOCKS5 client in one write (greeting, CONNECT by name as Chromium sends it,
 * then an HTTP request): prints what came back and how the connection ended.
 */
const CLIENT = `
import { connect } from "node:net";
const [proxyPort, host, port] = process.argv.slice(1);
const name = Buffer.from(host);
const socket = connect({ host: "127.0.0.1", port: Number(proxyPort) });
const chunks = [];
const started = Date.now();
const done = (how) => { process.stdout.write(JSON.stringify({ how, ms: Date.now() - started, received: Buffer.concat(chunks).toString("latin1") })); process.exit(0); };
socket.on("connect", () => socket.write(Buffer.concat([
  Buffer.from([5, 1, 0, 5, 1, 0, 3, name.length]), name, Buffer.from([Number(port) >> 8, Number(port) & 255]),
  Buffer.from("GET /page HTTP/1.0\\r\\nHost: " + host + "\\r\\n\\r\\n"),
])));
socket.on("data", (chunk) => chunks.push(chunk));
socket.on("close", () => done("closed"));
socket.on("error", () => {});
setTimeout(() => done("timeout"), 5000);
`;

interface ClientResult { how: "closed" | "timeout"; ms: number; received: string }

function runClient(asUid: number | undefined, proxyPort: number, host: string, port: number): Promise<ClientResult> {
  const nodeArgs = ["--input-type=module", "-e", CLIENT, String(proxyPort), host, String(port)];
  const [command, args] = asUid === undefined
    ? [process.execPath, nodeArgs]
    : [SETPRIV, [`--reuid=${asUid}`, `--regid=${asUid}`, "--clear-groups", process.execPath, ...nodeArgs]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: "/", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", () => {
      try {
        resolve(JSON.parse(stdout) as ClientResult);
      } catch {
        reject(new Error(`client printed ${JSON.stringify(stdout)}; stderr: ${stderr}`));
      }
    });
  });
}

let server: http.Server;
let port: number;
const served: string[] = [];
const guards: BrowserGuard[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    served.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain", connection: "close" }).end("the owner's page");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  for (const guard of guards.splice(0)) await guard.close();
  served.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The worker's guard with the daemon's guard service (blocked.test refused), every dial, blocked entry and log line recorded. */
async function startGuard() {
  const dialer = recordingDialer();
  const service = new GuardService({ allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: ["blocked.test"] }, { dial: dialer.dial, resolve: async () => ["127.0.0.1"] });
  const ask: GuardAskFn = (url, details) => service.check(url, details);
  const logs: string[] = [];
  const blocked: BlockedRequest[] = [];
  // What guard.connect does in the daemon, without the worker's channels in between.
  const guard = new BrowserGuard({ ask, connect: (host, port) => service.connect(host, port), log: (line) => logs.push(line) });
  guards.push(guard);
  const proxy = await guard.proxy();
  // Without routing, attach only names where refusals go; a stand-in context is enough.
  await guard.attach({} as BrowserContext, (entry) => blocked.push({ ...entry, count: 1 }));
  return { proxy, service, dialed: dialer.asked, logs, blocked };
}

describeNeeding(cannotSwitchUser, "the guard proxy and other local users", () => {
  it("closes another user's connection unanswered: no byte, no policy question, no blocked entry, nothing dialled", async () => {
    const { proxy, service, dialed, logs, blocked } = await startGuard();
    const page = await runClient(NOBODY, proxy.port, "127.0.0.1", port);
    const refusedHost = await runClient(NOBODY, proxy.port, "blocked.test", 80);
    for (const result of [page, refusedHost]) {
      expect(result.received).toBe("");
      expect(result.how).toBe("closed");
    }
    expect(served).toEqual([]);
    expect(service.counts).toMatchObject({ checks: 0, connects: 0 });
    expect(dialed).toEqual([]);
    expect(blocked).toEqual([]);
    expect(proxy.stats()).toMatchObject({ peerRefused: 2, connections: 0, checks: 0, refused: 0 });
    // One line for both: the second falls inside the rate limit.
    expect(logs.filter((l) => l.includes("unanswered"))).toEqual([expect.stringContaining(`uid ${NOBODY}`)]);
  });

  it("serves the same client run as the owner, and reports the owner's refusals as blocked", async () => {
    const { proxy, service, blocked } = await startGuard();
    const page = await runClient(undefined, proxy.port, "127.0.0.1", port);
    expect(page.received.startsWith("\x05\x00\x05\x00")).toBe(true);
    expect(page.received).toContain("the owner's page");
    expect(served).toEqual(["/page"]);
    expect(service.counts).toMatchObject({ checks: 1, connects: 1 });

    const refused = await runClient(undefined, proxy.port, "blocked.test", 80);
    expect(refused.received.charCodeAt(3)).toBe(0x02); // SOCKS reply: not allowed by ruleset
    expect(blocked).toEqual([expect.objectContaining({ url: "http://blocked.test/", layer: "proxy" })]);
  });
});
