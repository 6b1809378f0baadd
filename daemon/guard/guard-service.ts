// The daemon's guard service: it holds the profile's NetworkPolicy, answers the
// worker's `guard.check` (saying whether the answer may be cached), makes the
// connections the worker's proxy asks for (`guard.connect`: decide, resolve,
// decide again per address, dial the literal) and answers a client's
// `policy.check` dry run. It never starts a worker or a browser.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { APPROVED_CONNECT_DEFAULTS, connectApproved, type ApprovedConnection } from "./approved-connect.js";
import type { GuardDecision, GuardTarget } from "./guard-decision.js";
import { defaultDial, type Dial } from "./upstream-dial.js";
import type { PolicySettings } from "../../shared/config.js";
import { BwError } from "../../shared/protocol/errors.js";
import { proxyTarget } from "../../shared/guard/questions/index.js";
import { answerGuardCheck, NetworkPolicy, type GuardAnswer, type RequestDetails } from "../../shared/guard/policy/index.js";
import type { AddressDecision, GuardCounts, PolicyCheckResult, PolicyOverrides } from "../../shared/protocol/methods/index.js";

export type Resolve = (host: string) => Promise<string[]>;

export interface GuardServiceOptions {
  /** Every address of a host name; injected in tests. Default: dns.lookup with `all`. */
  resolve?: Resolve;
  /** Bound on one resolution for a dry run. */
  resolveTimeoutMs?: number;
  /** Addresses beyond this many are not reported (the proxy neither checks nor dials them). */
  maxResolvedAddresses?: number;
  /** Opens a TCP connection to an IP literal; injected in tests. Default: net.connect. */
  dial?: Dial;
  log?: (line: string) => void;
}

const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_ADDRESSES = 16;
const NETWORK_DEFAULT_PORTS: Readonly<Record<string, number>> = Object.freeze({ "http:": 80, "https:": 443, "ws:": 80, "wss:": 443 });

export const defaultResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** The policy a daemon runs for these settings; INVALID_ARGUMENT names a bad entry. */
export function policyFromSettings(settings: PolicySettings): NetworkPolicy {
  return NetworkPolicy.fromJSON({
    allowLoopback: settings.allowLoopback,
    allowPrivateNetwork: settings.allowPrivateNetwork,
    allowHosts: settings.allowHosts,
    blockHosts: settings.blockHosts,
    onlyPorts: settings.onlyPorts,
  });
}

/** A call's overrides over the daemon's policy; blocking loopback blocks the private network too, as on the command line. */
export function applyOverrides(base: PolicySettings, overrides: PolicyOverrides | undefined): PolicySettings {
  const merged: PolicySettings = {
    allowLoopback: overrides?.allowLoopback ?? base.allowLoopback,
    allowPrivateNetwork: overrides?.allowPrivateNetwork ?? base.allowPrivateNetwork,
    allowHosts: [...(overrides?.allowHosts ?? base.allowHosts)],
    blockHosts: [...(overrides?.blockHosts ?? base.blockHosts)],
    onlyPorts: [...(overrides?.onlyPorts ?? base.onlyPorts ?? [])],
  };
  if (overrides?.allowLoopback === false) merged.allowPrivateNetwork = false;
  return merged;
}

function settingsOf(policy: NetworkPolicy): PolicySettings & { custom?: true } {
  const { allowLoopback, allowPrivateNetwork, allowHosts, blockHosts, onlyPorts, custom } = policy.describe();
  const settings = { allowLoopback, allowPrivateNetwork, allowHosts: [...allowHosts], blockHosts: [...blockHosts], onlyPorts: [...onlyPorts] };
  return custom === true ? { ...settings, custom } : settings;
}

export class GuardService {
  readonly policy: NetworkPolicy;
  readonly #resolve: Resolve;
  readonly #resolveTimeoutMs: number;
  readonly #maxAddresses: number;
  readonly #dial: Dial;
  readonly #log: (line: string) => void;
  /** Policy questions answered and denied, and connections asked for, since start (status; the guard benchmark). */
  readonly #counts = { checks: 0, denied: 0, connects: 0 };

  /** A NetworkPolicy (possibly with a hook) only in the in-process host; a daemon has settings. */
  constructor(policy: PolicySettings | NetworkPolicy, options: GuardServiceOptions = {}) {
    this.policy = policy instanceof NetworkPolicy ? policy : policyFromSettings(policy);
    this.#resolve = options.resolve ?? defaultResolve;
    this.#resolveTimeoutMs = options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
    this.#maxAddresses = options.maxResolvedAddresses ?? DEFAULT_MAX_ADDRESSES;
    this.#dial = options.dial ?? defaultDial;
    this.#log = options.log ?? (() => {});
  }

  /** The effective policy, canonical (for status and `doctor`). */
  get settings(): PolicySettings & { custom?: true } {
    return settingsOf(this.policy);
  }

  get counts(): GuardCounts {
    return { ...this.#counts };
  }

  /** The worker's question. Never rejects: any failure is a non-cacheable denial. */
  async check(url: string, details: RequestDetails): Promise<GuardAnswer> {
    this.#counts.checks++;
    const answer = await answerGuardCheck(this.policy, url, details);
    if (!answer.allowed) this.#counts.denied++;
    if (!answer.allowed) this.#log(`guard: denied ${url.slice(0, 300)} (${details.layer}${details.resourceType ? ` ${details.resourceType}` : ""}): ${answer.reason}`);
    return answer;
  }

  /**
   * A connection the worker's proxy asks for: the policy is asked about the
   * host as named and about every address it resolves to (each with the name it
   * came from), and only an allowed literal is dialled. Never rejects.
   */
  async connect(host: string, port: number): Promise<ApprovedConnection> {
    this.#counts.connects++;
    const outcome = await connectApproved(host, port, {
      authorize: (target) => this.#authorize(target),
      resolve: this.#resolve,
      dial: this.#dial,
      now: () => performance.now(),
      checkTimeoutMs: APPROVED_CONNECT_DEFAULTS.checkTimeoutMs,
      connectTimeoutMs: APPROVED_CONNECT_DEFAULTS.connectTimeoutMs,
      maxResolvedAddresses: this.#maxAddresses,
    });
    if (outcome.kind === "refused" && outcome.refusal !== "denied") this.#log(`guard: no connection to ${host.slice(0, 300)}:${port} (${outcome.refusal}): ${outcome.reason}`);
    return outcome;
  }

  /** The proxy layer's question about one host or resolved address, phrased as the URL it would serve. */
  async #authorize(target: GuardTarget): Promise<GuardDecision> {
    const { url } = proxyTarget(target.host, target.port);
    const details: RequestDetails = target.resolvedFrom === undefined ? { layer: "proxy" } : { layer: "proxy", resolvedFrom: target.resolvedFrom };
    const answer = await this.check(url, details);
    return { allowed: answer.allowed, reason: answer.reason };
  }

  /** A dry run of the policy (with the call's overrides) for one URL, and with `resolve` for every address of its host. */
  async dryRun(url: string, options: { overrides?: PolicyOverrides | undefined; resolve?: boolean | undefined } = {}): Promise<PolicyCheckResult> {
    const policy = options.overrides === undefined
      ? this.policy
      : new NetworkPolicy({ ...applyOverrides(this.settings, options.overrides), custom: this.policy.custom ?? null });
    const urlDecision = await policy.check(url, { layer: "cli" });
    const result: PolicyCheckResult = {
      url,
      allowed: urlDecision.allowed,
      reason: urlDecision.reason,
      urlDecision: { allowed: urlDecision.allowed, reason: urlDecision.reason },
      policy: settingsOf(policy),
    };
    if (options.resolve !== true || !urlDecision.allowed) return result;
    const target = networkTarget(url);
    if (target === undefined || isIP(target.host) !== 0) return result;
    let addresses: string[];
    try {
      addresses = await this.#lookup(target.host);
    } catch (error) {
      result.resolved = { host: target.host, addresses: [], error: `could not resolve ${target.host}: ${(error as Error).message}` };
      return result;
    }
    const decisions: AddressDecision[] = [];
    for (const address of addresses) {
      const decision = await policy.check(proxyTarget(address, target.port).url, { layer: "cli", resolvedFrom: target.host });
      decisions.push({ address, allowed: decision.allowed, reason: decision.reason });
    }
    result.resolved = { host: target.host, addresses: decisions };
    const denied = decisions.find((d) => !d.allowed);
    if (denied !== undefined) {
      result.allowed = false;
      result.reason = `${target.host} resolved to ${denied.address}: ${denied.reason}`;
    }
    return result;
  }

  async #lookup(host: string): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${this.#resolveTimeoutMs} ms`)), this.#resolveTimeoutMs);
    });
    try {
      const answer = await Promise.race([this.#resolve(host), timeout]);
      const unique = [...new Set(answer)].filter((a) => typeof a === "string" && isIP(a) !== 0);
      if (unique.length === 0) throw new Error("no addresses");
      return unique.slice(0, this.#maxAddresses);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The host and port a URL would make the proxy dial; undefined for URLs that load nothing from the network. */
function networkTarget(url: string): { host: string; port: number } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BwError("INVALID_ARGUMENT", "URL cannot be parsed");
  }
  const defaultPort = NETWORK_DEFAULT_PORTS[parsed.protocol];
  if (defaultPort === undefined || parsed.hostname === "") return undefined;
  const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname;
  return { host, port: parsed.port === "" ? defaultPort : Number(parsed.port) };
}
