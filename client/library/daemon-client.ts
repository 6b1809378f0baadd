// Finding or starting the profile's daemon and greeting it. Settings this
// call does not state are taken from the running daemon; an idle daemon that
// differs is replaced, inheriting what the caller left unstated.
import { readdirSync } from "node:fs";
import { DEFAULT_PROFILE, nameProblem } from "../../shared/names.js";
import type { DaemonBootstrap } from "../../shared/bootstrap.js";
import type { DaemonSettings, ResolvedConfig } from "../../shared/config.js";
import { daemonSettingsOf } from "../../shared/config.js";
import { BwError } from "../../shared/protocol/errors.js";
import { mergeSettings, statedSettings } from "../../shared/settings-diff.js";
import { layoutFor, type HomeLayout } from "../../shared/paths.js";
import { Hello, type DaemonIdentity } from "../../shared/protocol/methods/index.js";
import type { RpcCaller } from "../../shared/protocol/rpc-client.js";
import { PACKAGE_VERSION, PROTOCOL_VERSION } from "../../shared/version.js";
import { connectSocket } from "./transport.js";
import { isProcessAlive } from "../../shared/process-alive.js";
import { checkSocket } from "../../shared/secure-fs.js";

const CONNECT_RETRY_MS = 50;
const WAIT_FOR_DAEMON_MS = 15_000;
/** Past the profile lock's stale time (10 s), so that the lock of a killed holder that named nobody (an older version) is taken over. */
const LOCK_TAKEOVER_MS = 13_000;
/** How long a spawn that found the lock held waits for the holder's socket before spawning again. */
const EXISTS_CONNECT_MS = 1_000;

export interface DaemonConnection {
  peer: RpcCaller;
  daemon: DaemonIdentity;
  layout: HomeLayout;
  /** The daemon was started in place of one that had died holding the profile (killed): its pid. */
  recovered?: RecoveredDaemon;
}

export interface RecoveredDaemon {
  pid: number;
  /** What held the profile: a daemon, or a --no-daemon run. */
  kind: "daemon" | "in-process";
}

/** The line a front end shows when a call had to replace a daemon that had died. */
export function recoveryNotice(profile: string, recovered: RecoveredDaemon): string {
  const what = recovered.kind === "daemon" ? "the daemon" : "a --no-daemon run";
  return `${what} for profile ${profile} had stopped unexpectedly (pid ${recovered.pid}); started a new daemon`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A connection to the daemon, or undefined when none listens. Nothing is sent
 * unless the socket and its folder are ours alone (UNSAFE_PATH otherwise):
 * the first lines carry snippets and vault secrets.
 */
async function tryConnect(socketPath: string): Promise<RpcCaller | undefined> {
  if (!checkSocket(socketPath)) return undefined;
  try {
    return await connectSocket(socketPath);
  } catch (error) {
    const errno = (error as { errno?: string }).errno;
    // ECONNRESET: the socket of a daemon that is dying (killed, its last threads still exiting) took the connection, then dropped it.
    if (errno === "ENOENT" || errno === "ECONNREFUSED" || errno === "ECONNRESET") return undefined;
    throw error;
  }
}

async function connectWithin(socketPath: string, ms: number): Promise<RpcCaller | undefined> {
  const until = Date.now() + ms;
  do {
    const peer = await tryConnect(socketPath);
    if (peer) return peer;
    await sleep(CONNECT_RETRY_MS);
  } while (Date.now() < until);
  return undefined;
}

/**
 * Spawns a daemon and connects to whichever daemon serves the profile. A spawn
 * that finds the profile lock held ("exists") lost a race (the winner binds
 * within moments), met a --no-daemon run, or met the lock of a killed holder
 * that did not name itself, which is taken over once stale (10 s after its
 * last refresh): keep spawning until one serves. (A killed holder that named
 * itself is found dead and its lock taken at once.)
 */
async function startAndConnect(layout: HomeLayout, bootstrap: DaemonBootstrap, env: NodeJS.ProcessEnv): Promise<{ peer: RpcCaller; recovered?: RecoveredDaemon }> {
  const until = Date.now() + LOCK_TAKEOVER_MS;
  // child_process and the spawn logic load only when a daemon has to be started.
  const { spawnDaemon } = await import("./spawn.js");
  for (;;) {
    const readiness = await spawnDaemon(layout, bootstrap, env);
    if (readiness.status === "error") throw BwError.from(readiness.error);
    const peer = await connectWithin(layout.socketPath, readiness.status === "ready" ? WAIT_FOR_DAEMON_MS : EXISTS_CONNECT_MS);
    if (peer) return readiness.status === "ready" && readiness.recovered ? { peer, recovered: readiness.recovered } : { peer };
    if (readiness.status === "ready") throw new BwError("DAEMON_UNAVAILABLE", `the daemon for profile ${layout.profile} did not open ${layout.socketPath}; see ${layout.logPath}`);
    if (Date.now() >= until) {
      throw new BwError("DAEMON_UNAVAILABLE", `the profile ${layout.profile} is locked by a process that serves no socket (a --no-daemon run?); see ${layout.logPath}`);
    }
  }
}

/** `forBrowser`: the call needs a browser, so a daemon started for it starts its worker at once. */
/** `serveNames`: this client may use betterwright serve's session and state names (shared/names.ts). */
export async function connectDaemon(config: ResolvedConfig, env: NodeJS.ProcessEnv, forBrowser = false, serveNames = false): Promise<DaemonConnection> {
  const { settings } = config;
  const stated = statedSettings(config);
  const layout = layoutFor(settings.home, settings.profile);
  let spawnSettings: DaemonSettings = daemonSettingsOf(settings);
  let recovered: RecoveredDaemon | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    let peer = await tryConnect(layout.socketPath);
    if (!peer) {
      const started = await startAndConnect(layout, { home: layout.home, profile: layout.profile, settings: spawnSettings, defaultTimeoutMs: settings.timeoutMs, ...(forBrowser ? { prestartWorker: true } : {}) }, env);
      peer = started.peer;
      recovered ??= started.recovered;
    }
    let hello;
    try {
      hello = await peer.call(Hello, { clientVersion: PACKAGE_VERSION, protocol: PROTOCOL_VERSION, settings: stated as Record<string, unknown>, ...(serveNames ? { serveNames } : {}) });
    } catch (error) {
      peer.close();
      // Closed before it answered: a dying daemon's socket took the connection. The next attempt finds it gone.
      if (error instanceof BwError && error.code === "DAEMON_UNAVAILABLE" && attempt < 2) {
        await sleep(CONNECT_RETRY_MS);
        continue;
      }
      throw error;
    }
    if (hello.status === "ok") return { peer, daemon: hello.daemon, layout, ...(recovered ? { recovered } : {}) };
    peer.close();
    spawnSettings = mergeSettings(hello.daemon.settings, stated);
    await waitForDaemonExit(hello.daemon.pid);
  }
  throw new BwError("DAEMON_UNAVAILABLE", `could not settle on a daemon for profile ${layout.profile}; see ${layout.logPath}`);
}

/** Connects to the profile's daemon only if one runs; never starts one. */
export async function connectExisting(layout: HomeLayout): Promise<DaemonConnection | undefined> {
  const peer = await tryConnect(layout.socketPath);
  if (!peer) return undefined;
  try {
    const hello = await peer.call(Hello, { clientVersion: PACKAGE_VERSION, protocol: PROTOCOL_VERSION, settings: {}, inspect: true });
    return { peer, daemon: hello.daemon, layout };
  } catch (error) {
    peer.close();
    throw error;
  }
}

/** Every profile's daemon that has an info file in this home. */
export function listDaemonLayouts(home: string): HomeLayout[] {
  let names: string[];
  try {
    names = readdirSync(home);
  } catch {
    return [];
  }
  const layouts: HomeLayout[] = [];
  for (const name of names.sort()) {
    const match = /^daemon(?:-(.+))?\.json$/.exec(name);
    if (!match) continue;
    const profile = match[1] ?? DEFAULT_PROFILE;
    if (profile !== DEFAULT_PROFILE && nameProblem(profile, "profile") !== undefined) continue;
    layouts.push(layoutFor(home, profile));
  }
  return layouts;
}


/** Waits until the daemon process has exited (its socket, info file and browser are gone by then). */
export async function waitForDaemonExit(pid: number, ms: number = WAIT_FOR_DAEMON_MS): Promise<boolean> {
  const until = Date.now() + ms;
  while (isProcessAlive(pid)) {
    if (Date.now() >= until) return false;
    await sleep(CONNECT_RETRY_MS);
  }
  return true;
}
