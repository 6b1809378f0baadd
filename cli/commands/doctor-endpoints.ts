// doctor's checks of remote browser endpoints: each one reachable (a TCP
// connection, timed), a CDP endpoint's browser version from /json/version,
// and what the running daemon knows of each (connected, version, sessions).
// A CDP endpoint fails the check unless trustRemoteEgress is set, since the
// guard cannot hold its egress; with it, the check passes and says so.
import { request } from "node:http";
import { connect } from "node:net";
import type { Settings } from "../../shared/config.js";
import type { EndpointReport } from "../../shared/protocol/methods/index.js";
import { endpointAddress, type BrowserEndpoint } from "../../shared/remote-config.js";
import type { Check } from "./doctor.js";

const PROBE_TIMEOUT_MS = 5_000;
/** Milliseconds to open a TCP connection, or why it could not be opened. */
function tcpLatency(host: string, port: number): Promise<{ ms: number } | { error: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host, port });
    const done = (result: { ms: number } | { error: string }) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done({ error: `no answer within ${PROBE_TIMEOUT_MS} ms` }));
    socket.once("connect", () => done({ ms: Math.round((performance.now() - started) * 10) / 10 }));
    socket.once("error", (error) => done({ error: error.message }));
  });
}

/** A plain-HTTP CDP endpoint's browser version (headers are not sent: doctor holds no secrets). */
function cdpVersion(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request({ host, port, path: "/json/version", timeout: PROBE_TIMEOUT_MS }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk.slice(0, 65_536)));
      res.on("end", () => {
        try {
          resolve(String((JSON.parse(body) as { Browser?: unknown }).Browser ?? "") || undefined);
        } catch {
          resolve(undefined);
        }
      });
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
    req.end();
  });
}

async function endpointCheck(endpoint: BrowserEndpoint, trust: boolean, known: EndpointReport | undefined): Promise<Check> {
  const name = "endpoint";
  const { host, port, protocol } = endpointAddress(endpoint.url);
  const reach = await tcpLatency(host, port);
  if ("error" in reach) {
    return { name, ok: false, detail: `${endpoint.url} cannot be reached: ${reach.error}`, fix: "start the browser server there (docs/remote-browsers.md), or remove it from browserEndpoints" };
  }
  const version = known?.version ?? (endpoint.kind === "cdp" && protocol === "http:" ? await cdpVersion(host, port) : undefined);
  const daemonView = known ? `; the daemon: ${known.state}, ${known.sessions}/${known.maxSessions} sessions${known.error ? ` (${known.error})` : ""}` : "";
  const detail = `${endpoint.url} reachable in ${reach.ms} ms${version ? `, ${version}` : ""}${daemonView}`;
  if (endpoint.kind === "playwright") return { name, ok: true, detail: `${detail}; egress through the guard proxy` };
  if (!trust) {
    return { name, ok: false, detail: `${detail}; GUARD_NOT_ENFORCED: a CDP browser cannot be made to send all its traffic through the guard, so sessions are refused there`, fix: "use a Playwright browser server (ws://) instead, or set trustRemoteEgress: true to accept it" };
  }
  return { name, ok: true, detail: `${detail}; GUARD_NOT_ENFORCED: trusted (trustRemoteEgress), its egress is not held by the guard` };
}

export function endpointChecks(settings: Settings, reports: EndpointReport[] | undefined): Promise<Check[]> {
  const { endpoints, trustRemoteEgress } = settings.remote;
  return Promise.all(endpoints.map((endpoint) => endpointCheck(endpoint, trustRemoteEgress, reports?.find((r) => r.url === endpoint.url))));
}
