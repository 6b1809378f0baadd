// The test side of a compromised worker (fixtures/compromised-worker.mjs): the
// plan of what it tries (targets in a home the test prepared), the environment
// that injects it, the outside listener it must not reach, and its findings.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type http from "node:http";
import { layoutFor } from "../../shared/paths.js";
import { startServer, type TestServer } from "./http-server.js";

const PRELOAD = pathToFileURL(path.join(import.meta.dirname, "..", "e2e", "fixtures", "compromised-worker.mjs")).href;

export interface Plan {
  outsidePort: number;
  hostAddresses: string[];
  /** Metadata and DNS probes: only ever asked of a contained worker, which checks it has no route out first. */
  networkProbes: boolean;
  name: string;
  ownProfile: string;
  reads: Record<string, string>;
  writes: Record<string, string>;
  sockets: Record<string, string>;
  /** Values whose presence in the worker's and Chromium's environments it reports. */
  canaries?: string[];
  /** The profile's artifact folder as the worker sees it (the pipe tampering's own folder). */
  artifactsDir?: string;
  /** A reply holding the marker makes the worker write `pdf` and a `.downloads.jsonl` line (`{dir}`: the session folder) into each session folder. */
  plant?: Record<string, { pdf: string; line: unknown }>;
  /** A reply holding the marker is replaced by this result, `{dir}` by a session folder (fixtures/compromised-pipe.mjs). */
  forge?: Record<string, unknown>;
  /** A reply holding the marker makes the worker send `count` reservations of its own. */
  reserve?: Record<string, { session: string; bytes: number; count: number }>;
  /** A screenshot's session folder becomes a link to `target`, and the reply names `file` in it. */
  swap?: { target: string; file: string };
}

export type Finding = { ok: true; detail: string } | { ok: false; code: string | null; message: string };

export interface Findings {
  fixtureError?: string;
  uid: number;
  network: { interfaces: string[]; routesOut: number };
  isolated: boolean;
  pids: number;
  daemonVisible: boolean;
  [probe: string]: unknown;
}

/** This machine's own non-loopback IPv4 addresses: reachable without leaving it, so a connection to one stays local. */
export function hostAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flat().filter((a) => a !== undefined && a.family === "IPv4" && !a.internal).map((a) => a!.address).slice(0, 2);
}

/** A listener on every local address that counts what reaches it: the worker must never be one. */
export async function outsideListener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Things in `home` a compromised worker would want: another profile's cookies and artifacts, a transcript, config.json. */
export function plantSecrets(home: string): Record<string, string> {
  const other = layoutFor(home, "other");
  const files = {
    otherCookies: path.join(other.profileDir, "Default", "Cookies"),
    otherArtifact: path.join(other.artifactsRoot, "other", "s", "secret.txt"),
    otherTranscript: path.join(other.sessionsRoot, "s", "transcript.jsonl"),
    configJson: other.configPath,
  };
  // config.json is the home's, not the profile's: one file for every profile.
  for (const [name, file] of Object.entries(files)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, name === "configJson" ? "{}\n" : `secret of ${name}\n`, { mode: 0o600 });
  }
  return files;
}

/** Everything the worker tries, aimed at `home`, at another home and at the machine. */
export function planFor(home: string, otherHome: string, outsidePort: number, networkProbes: boolean, marker: string): Plan {
  const layout = layoutFor(home);
  const other = layoutFor(otherHome);
  return {
    outsidePort,
    hostAddresses: hostAddresses(),
    networkProbes,
    name: "example.com",
    ownProfile: layout.profileDir,
    reads: {
      vaultKey: path.join(layout.vaultDir, "vault.key"),
      vaultEnc: path.join(layout.vaultDir, "vault.enc"),
      daemonLog: layout.logPath,
      daemonInfo: layout.infoPath,
      otherHomeVaultKey: path.join(other.vaultDir, "vault.key"),
      ...plantSecrets(home),
    },
    writes: {
      home: path.join(home, `written-${marker}`),
      vault: path.join(layout.vaultDir, `written-${marker}`),
      otherProfile: path.join(layoutFor(home, "other").profileDir, `written-${marker}`),
      otherHome: path.join(otherHome, `written-${marker}`),
      etc: `/etc/bw-written-${marker}`,
      tmp: path.join(os.tmpdir(), `bw-written-${marker}`),
    },
    sockets: { ownDaemon: layout.socketPath, otherDaemon: other.socketPath },
  };
}

/** A plan that tries nothing on the machine: for tests of what the worker can do through its pipe and environment. */
export function quietPlan(home: string, extra: Partial<Plan>): Plan {
  return { outsidePort: 0, hostAddresses: [], networkProbes: false, name: "example.com", ownProfile: layoutFor(home).profileDir, reads: {}, writes: {}, sockets: {}, ...extra };
}

/**
 * The environment that injects the fixture into every process the CLI starts; it acts only in the worker.
 * The plan rides in the module's URL: NODE_OPTIONS is the one variable of the caller's a worker inherits.
 */
export function compromisedEnv(plan: Plan): NodeJS.ProcessEnv {
  return { NODE_OPTIONS: `--import=${PRELOAD}?plan=${Buffer.from(JSON.stringify(plan)).toString("base64url")}` };
}

/** The findings the worker wrote in its temp folder (under the profile's browser env folder), once they are there. */
export async function readFindings(home: string, profile = "default", timeoutMs = 20_000, file = "compromised-findings.json"): Promise<Findings> {
  const root = path.join(layoutFor(home, profile).browserEnvDir, "worker-tmp");
  const until = Date.now() + timeoutMs;
  for (;;) {
    let names: string[] = [];
    try {
      names = readdirSync(root);
    } catch {
      // not made yet
    }
    for (const name of names) {
      try {
        return JSON.parse(readFileSync(path.join(root, name, file), "utf8")) as Findings;
      } catch {
        // not written yet
      }
    }
    if (Date.now() > until) throw new Error(`the compromised worker wrote no findings under ${root}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const LOGIN = `<title>Sign in</title><form method="post" action="/session">
  <input name="user" type="text"><input name="pw" type="password"><button>Sign in</button></form>`;

/** The real workload's pages on 127.0.0.1: a page, a download, a login form whose posts land in `posts`. */
export function workloadServer(posts: string[]): Promise<TestServer> {
  return startServer({
    "/": "<title>Contained</title><a id=file href='/file'>file</a>",
    "/file": (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": "attachment; filename=\"note.txt\"" }).end("downloaded");
    },
    "/login": LOGIN,
    "/session": (req: http.IncomingMessage, res: http.ServerResponse) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        posts.push(body);
        res.writeHead(200, { "content-type": "text/html" }).end("<title>Welcome</title>");
      });
    },
  });
}
