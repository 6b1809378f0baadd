// `betterwright serve`: the token-guarded HTTP API of the reference browser
// worker, and a live view, as an ordinary client of the profile's daemon.
// It states what its sessions need of that daemon: the public-web policy
// unless the caller chose a posture, a per-file download cap equal to its PDF
// cap (so an oversized download is cancelled in flight), and a session TTL
// longer than its own idle close (so it is serve that saves and closes).
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { BetterWright } from "../../index.js";
import type { ResolvedConfig } from "../../../shared/config.js";
import type { ServeSettings } from "./serve-config.js";
import { BwError, toBwError } from "../../../shared/protocol/errors.js";
import { isProcessAlive } from "../../../shared/process-alive.js";
import { layoutFor } from "../../../shared/paths.js";
import { policyPreset, postureName } from "../../../shared/guard/policy/index.js";
import { ensurePrivateDir, writeFileAtomic } from "../../../shared/secure-fs.js";
import { createApp } from "./app.js";
import { answeredHosts, checkListen, type ListenAddress } from "../common/listener.js";
import { SERVE_LISTEN } from "./listen.js";
import { LiveLogins } from "./live-login.js";
import { LiveView } from "./live-view.js";
import { loadHono } from "./hono-kit.js";
import { PdfIntake } from "./pdf-intake.js";
import { RecordStore } from "./records.js";
import { UuidSessions } from "./sessions.js";
import { loadToken } from "./token.js";

export interface ServeOptions {
  config: ResolvedConfig;
  env: NodeJS.ProcessEnv;
  serve: ServeSettings;
  listen: ListenAddress;
  allowRemote: boolean;
  /** Lines for people (stderr); never carries the token. */
  log: (line: string) => void;
}

export interface RunningServe {
  url: string;
  port: number;
  /** The token's file, or the variable it came from. */
  tokenSource: string;
  policy: string;
  /** Stops listening, saves and closes every open session, disconnects. */
  close(): Promise<void>;
}

const POSTURE_KEYS = ["allowLoopback", "allowPrivateNetwork", "onlyPorts"] as const;
const TTL_MARGIN_SECONDS = 60;

/** The daemon settings serve states on top of the caller's (see the file's header). */
export function serveDaemonSettings(config: ResolvedConfig, serve: ServeSettings): ResolvedConfig {
  const settings = { ...config.settings, policy: { ...config.settings.policy }, artifacts: { ...config.settings.artifacts } };
  const explicit = { ...config.explicit };
  const stated = { ...(config.statedPolicy ?? {}) };
  if (!POSTURE_KEYS.some((k) => stated[k] !== undefined)) {
    Object.assign(settings.policy, policyPreset("public-web"));
    Object.assign(stated, policyPreset("public-web"));
    explicit.policy = settings.policy;
  }
  settings.artifacts.downloadCapBytes = serve.maxDownloadBytes;
  explicit.artifacts = settings.artifacts;
  const ttl = serve.idleCloseSeconds + TTL_MARGIN_SECONDS;
  if (explicit.sessionTtlSeconds === undefined && settings.sessionTtlSeconds < ttl) {
    settings.sessionTtlSeconds = ttl;
    explicit.sessionTtlSeconds = ttl;
  }
  return { settings, explicit, statedPolicy: stated };
}

/** One serve per profile: its records and open sessions are its own. */
function assertNotServing(record: string): void {
  let running: { pid?: unknown; url?: unknown };
  try {
    running = JSON.parse(readFileSync(record, "utf8")) as typeof running;
  } catch {
    return;
  }
  if (typeof running.pid === "number" && running.pid !== process.pid && isProcessAlive(running.pid)) {
    throw new BwError("INVALID_ARGUMENT", `serve already runs for this profile (pid ${running.pid}, ${String(running.url)}); stop it, or serve another profile (--profile)`);
  }
}

export async function startServe(options: ServeOptions): Promise<RunningServe> {
  checkListen(options.listen, options.allowRemote, SERVE_LISTEN);
  const config = serveDaemonSettings(options.config, options.serve);
  const { home, profile } = config.settings;
  assertNotServing(path.join(home, "serve", "profiles", profile, "serve.json"));
  const { token, source: tokenSource } = loadToken(options.serve.token, home);
  // Serve's own sessions and states: the one client of the profile that uses their names without opting in by hand.
  const bw = BetterWright.fromConfig(config, options.env, { serveSessions: true });
  let server: ServerType | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  const record = path.join(home, "serve", "profiles", profile, "serve.json");
  try {
    // Greets the daemon with these settings: a busy daemon with others fails here (CONFIG_MISMATCH), before any port is bound.
    const status = await bw.status();
    if (options.serve.idleCloseSeconds + TTL_MARGIN_SECONDS > status.settings.sessionTtlSeconds) {
      options.log(`serve: the daemon closes idle sessions after ${status.settings.sessionTtlSeconds} s, before serve's idle close (${options.serve.idleCloseSeconds} s): such sessions close without saving their state`);
    }
    const effective = status.settings.policy;
    // An allowed host lets through more than the public web too (a loopback port, say): not public-web then.
    const posture = postureName(effective);
    const policy = posture === "public-web" && effective.allowHosts.length > 0 ? "custom" : posture;
    if (policy !== "public-web") {
      const also = effective.allowHosts.length > 0 ? `; also allowed: ${effective.allowHosts.join(", ")}` : "";
      options.log(`serve: the network policy is ${policy}, not public-web: ${effective.allowLoopback ? "loopback, " : ""}${effective.allowPrivateNetwork ? "private networks, " : ""}${effective.onlyPorts.length === 0 ? "any port" : `ports ${effective.onlyPorts.join(", ")}`} reachable${also}`);
    }
    const store = new RecordStore(home, profile);
    const artifactsRoot = layoutFor(home, profile).artifactsRoot;
    const artifactDir = (session: string) => path.join(artifactsRoot, profile, session);
    const intake = new PdfIntake(store, options.serve, artifactDir);
    const sessions = new UuidSessions({ bw, store, intake, artifactDir, settings: options.serve, log: options.log });
    await sessions.recover();
    const kit = await loadHono();
    const live = new LiveView({ bw, sessions, logins: new LiveLogins(token, kit.cookies), home, profile, artifactDir, policy: () => policy });
    let hosts: ReadonlySet<string> | undefined;
    const app = createApp(kit, {
      bw, sessions, intake, token, live,
      onScreenshot: (session, png) => live.remember(session, png),
      hosts: () => hosts,
      health: () => (policy === "public-web" ? { status: "ok" } : { status: "ok", policy }),
    });
    const info = await new Promise<AddressInfo>((resolve, reject) => {
      server = kit.listen({ fetch: app.fetch, hostname: options.listen.host, port: options.listen.port }, resolve);
      server.once("error", reject);
    });
    hosts = answeredHosts(options.listen, info.port);
    const shown = options.listen.host.includes(":") ? `[${options.listen.host}]` : options.listen.host;
    const url = `http://${shown}:${info.port}`;
    ensurePrivateDir(home);
    ensurePrivateDir(path.dirname(record), home);
    writeFileAtomic(record, `${JSON.stringify({ pid: process.pid, url, profile, policy, startedAt: new Date().toISOString() })}\n`);
    const sweepMs = Math.max(1_000, Math.min(30_000, (options.serve.idleCloseSeconds * 1000) / 4));
    sweeper = setInterval(() => void sessions.sweepIdle(), sweepMs);
    let closing: Promise<void> | undefined;
    return {
      url, port: info.port, tokenSource, policy,
      close: () => (closing ??= (async () => {
        clearInterval(sweeper);
        await new Promise<void>((resolve) => { server!.close(() => resolve()); (server as { closeAllConnections?: () => void }).closeAllConnections?.(); });
        await sessions.closeAll();
        rmSync(record, { force: true });
        await bw.close();
      })()),
    };
  } catch (error) {
    clearInterval(sweeper);
    server?.close();
    await bw.close();
    throw toBwError(error);
  }
}
