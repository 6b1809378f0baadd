// One remote endpoint as the worker holds it: a Playwright connection made on
// first use through the endpoint relay, the sessions placed on it, and, when
// it fails or goes away, a backoff before it is tried again. A Playwright
// browser server is asked to launch with the guard's flags; a CDP endpoint is
// a browser someone else launched, whose egress the guard cannot hold: it is
// used only under trustRemoteEgress (docs/remote-browsers.md).
import { request } from "node:http";
import type { Socket } from "node:net";
import type { Browser } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import type { EndpointReport, WorkerEndpoint } from "../../../shared/protocol/methods/index.js";
import { GUARD_ARGS } from "../chromium-args.js";
import { loadPlaywright } from "../playwright.js";
import { startEndpointRelay, type EndpointRelay } from "./endpoint-relay.js";

export interface EndpointDeps {
  /** A socket to the endpoint's host and port, dialled by the daemon. */
  dial(endpoint: number): Promise<Socket>;
  /** The endpoint's headers, secrets filled in by the daemon. */
  headers(endpoint: number): Promise<Record<string, string>>;
  trustRemoteEgress: boolean;
  log(line: string): void;
  /** The connection went away: the sessions placed here lost their contexts. */
  onLost(link: EndpointLink, sessions: string[]): void;
  now?: () => number;
}

export const CONNECT_TIMEOUT_MS = 30_000;
/** One read of a CDP endpoint's /json/version, and how many are made before the endpoint counts as not answering. */
const VERSION_TIMEOUT_MS = 10_000;
const VERSION_ATTEMPTS = 3;

class VersionTimeout extends Error {
  constructor() {
    super("/json/version timed out");
  }
}
/** Retry waits after consecutive failures: 1 s, doubling, at most a minute. */
const BACKOFF_MIN_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

/** Launch options a Playwright browser server may take from the connection (`run-server` does; `launchServer` has launched already). */
const LAUNCH_OPTIONS_HEADER = JSON.stringify({ args: GUARD_ARGS });

export class EndpointLink {
  readonly sessions = new Set<string>();
  #browser: Promise<Browser> | undefined;
  #relay: Promise<EndpointRelay> | undefined;
  #connected = false;
  #failures = 0;
  #retryAt = 0;
  #error: string | undefined;
  #version: string | undefined;
  readonly #now: () => number;

  constructor(readonly endpoint: WorkerEndpoint, private readonly deps: EndpointDeps) {
    this.#now = deps.now ?? Date.now;
  }

  get url(): string {
    return this.endpoint.url;
  }

  /** Whether the guard holds this browser's egress: a browser server is given the proxy per context and launched with our flags where it allows. */
  get guarded(): boolean {
    return this.endpoint.kind === "playwright";
  }

  /** Why the last connection failed or ended. */
  get lastError(): string | undefined {
    return this.#error;
  }

  /** Refused outright: a CDP endpoint without trustRemoteEgress. */
  get refusal(): string | undefined {
    if (this.guarded || this.deps.trustRemoteEgress) return undefined;
    return `${this.url} is a CDP endpoint: a browser someone else launched cannot be made to send all its traffic through the guard proxy; set trustRemoteEgress: true to use it anyway (every envelope then warns GUARD_NOT_ENFORCED)`;
  }

  /** Healthy, or down but due for another try. */
  available(): boolean {
    return this.refusal === undefined && (this.#connected || this.#now() >= this.#retryAt);
  }

  hasRoom(): boolean {
    return this.sessions.size < this.endpoint.maxSessions;
  }

  /** The connected browser, connecting first if need be. A failure puts the endpoint on backoff. */
  browser(): Promise<Browser> {
    const refusal = this.refusal;
    if (refusal) return Promise.reject(new BwError("GUARD_NOT_ENFORCED", refusal));
    if (!this.#browser) {
      const connecting = this.#connect();
      this.#browser = connecting;
      connecting.then(
        () => this.#succeeded(),
        (error: Error) => {
          if (this.#browser === connecting) this.#browser = undefined;
          this.#failed(error.message);
        },
      );
    }
    return this.#browser;
  }

  async #connect(): Promise<Browser> {
    const target = new URL(this.url.replace(/^cdp\+/, ""));
    const relay = await this.#relayFor(target);
    const headers = { ...(await this.deps.headers(this.endpoint.id)), Host: target.host };
    const { chromium } = loadPlaywright();
    let browser: Browser;
    try {
      if (this.endpoint.kind === "playwright") {
        browser = await chromium.connect(`ws://127.0.0.1:${relay.port}${target.pathname}${target.search}`, {
          headers: { ...headers, "x-playwright-launch-options": LAUNCH_OPTIONS_HEADER },
          timeout: CONNECT_TIMEOUT_MS,
        });
      } else {
        const path = target.protocol.startsWith("http") ? await this.#debuggerPath(relay, headers) : `${target.pathname}${target.search}`;
        browser = await chromium.connectOverCDP(`ws://127.0.0.1:${relay.port}${path}`, { headers, timeout: CONNECT_TIMEOUT_MS });
      }
    } catch (error) {
      throw new BwError("BROWSER_UNAVAILABLE", `remote browser ${this.url} did not answer: ${firstLine(error)}`);
    }
    this.#version = browser.version();
    browser.on("disconnected", () => this.#lost(browser));
    return browser;
  }

  /**
   * Where a CDP endpoint's browser listens: /json/version's webSocketDebuggerUrl, whose host is the browser's own view of itself.
   * A read that gets no answer is tried again on a new connection (it is a GET): one stalled connection does not fail the session.
   */
  async #debuggerPath(relay: EndpointRelay, headers: Record<string, string>): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#readDebuggerPath(relay, headers);
      } catch (error) {
        if (!(error instanceof VersionTimeout) || attempt >= VERSION_ATTEMPTS) throw error;
        this.deps.log(`remote endpoint ${this.url}: /json/version did not answer within ${VERSION_TIMEOUT_MS} ms; asking again`);
      }
    }
  }

  #readDebuggerPath(relay: EndpointRelay, headers: Record<string, string>): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: relay.port, path: "/json/version", headers, timeout: VERSION_TIMEOUT_MS, agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
          if (body.length > 64 * 1024) req.destroy(new Error("/json/version is too large"));
        });
        res.on("end", () => {
          try {
            const url = new URL(String((JSON.parse(body) as { webSocketDebuggerUrl?: unknown }).webSocketDebuggerUrl));
            resolve(`${url.pathname}${url.search}`);
          } catch {
            reject(new Error(`/json/version answered ${res.statusCode} without a webSocketDebuggerUrl`));
          }
        });
      });
      req.on("timeout", () => req.destroy(new VersionTimeout()));
      req.on("error", reject);
      req.end();
    });
  }

  #relayFor(target: URL): Promise<EndpointRelay> {
    if (!this.#relay) {
      const secure = target.protocol === "wss:" || target.protocol === "https:";
      const starting = startEndpointRelay(() => this.deps.dial(this.endpoint.id), secure ? target.hostname : undefined, this.deps.log);
      this.#relay = starting;
      starting.catch(() => {
        if (this.#relay === starting) this.#relay = undefined;
      });
    }
    return this.#relay;
  }

  #succeeded(): void {
    this.#connected = true;
    this.#failures = 0;
    this.#error = undefined;
    this.deps.log(`remote browser ${this.url} connected (${this.#version ?? "?"})`);
  }

  #failed(message: string): void {
    this.#connected = false;
    this.#failures += 1;
    this.#error = message;
    this.#retryAt = this.#now() + Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (this.#failures - 1));
    this.deps.log(`remote browser ${this.url}: ${message}; tried again in ${this.#retryAt - this.#now()} ms`);
  }

  #lost(browser: Browser): void {
    void this.#browser?.then((current) => {
      if (current !== browser) return;
      this.#browser = undefined;
      this.#failed("the connection was lost");
      const sessions = [...this.sessions];
      this.sessions.clear();
      this.deps.onLost(this, sessions);
    }, () => {});
  }

  /** State for `doctor` and `daemon.status`; with `probe`, connect if need be and time a context made and closed. */
  async report(probe: boolean): Promise<EndpointReport> {
    let latencyMs: number | undefined;
    if (probe && this.refusal === undefined) {
      try {
        const browser = await this.browser();
        const started = performance.now();
        await (await browser.newContext()).close();
        latencyMs = Math.round((performance.now() - started) * 100) / 100;
      } catch {
        // the error is reported below
      }
    }
    const down = this.refusal ?? (this.#connected ? undefined : this.#error);
    return {
      url: this.url,
      kind: this.endpoint.kind,
      state: this.#connected ? "connected" : down ? "down" : "idle",
      sessions: this.sessions.size,
      maxSessions: this.endpoint.maxSessions,
      guarded: this.guarded,
      ...(this.#version ? { version: this.#version } : {}),
      ...(latencyMs !== undefined ? { latencyMs } : {}),
      ...(down ? { error: down } : {}),
      ...(!this.#connected && this.#error && this.refusal === undefined ? { retryInMs: Math.max(0, this.#retryAt - this.#now()) } : {}),
    };
  }

  async close(): Promise<void> {
    const browser = this.#browser;
    this.#browser = undefined;
    if (browser) await browser.then((b) => b.close()).catch(() => {});
    const relay = this.#relay;
    this.#relay = undefined;
    if (relay) await relay.then((r) => r.close()).catch(() => {});
  }
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split("\n")[0]!.slice(0, 300);
}
