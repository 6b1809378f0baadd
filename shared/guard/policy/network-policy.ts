// The network policy: one pure decision per URL. Order is fixed: scheme →
// metadata floor → blockHosts → allowHosts → loopback/private rules →
// onlyPorts → custom hook → metadata floor again. The scheme check is final and the hook never
// sees it; the hook may override everything else, but an allow it gives is
// re-checked against the floor, and any error in it denies.
import { BwError } from "../../protocol/errors.js";
import { hostForUrl } from "../questions/host-normalize.js";
import { findMatchingPattern, parseHostPatterns, type HostPattern } from "./host-pattern.js";
import { classifyHost, stricterClass, type HostClassification } from "./ip-classify.js";
import { policyPreset, type PolicyPresetName } from "./presets.js";
import { describeError, invalidDecision, readCustomDecision, validateDetails } from "./policy-input.js";
import type {
  CustomHook,
  NetworkPolicyOptions,
  PolicyDecision,
  RequestDetails,
  SerializablePolicyOptions,
} from "./types.js";

const DEFAULT_PORTS: Readonly<Record<string, number>> = Object.freeze({ "http:": 80, "https:": 443, "ws:": 80, "wss:": 443 });
// Schemes whose content is already in the browser: nothing to guard.
const LOCAL_SCHEMES: readonly string[] = Object.freeze(["data:", "blob:"]);
const SERIALIZABLE_KEYS = ["allowLoopback", "allowPrivateNetwork", "allowHosts", "blockHosts", "onlyPorts"] as const;
const MAX_ONLY_PORTS = 32;
const OPTION_KEYS: readonly string[] = [...SERIALIZABLE_KEYS, "custom"];

interface Target {
  readonly host: HostClassification;
  readonly from: HostClassification | undefined;
  readonly port: number;
  readonly href: string;
}

/** A built-in decision; `final` ones (scheme, malformed input) are never shown to the hook. */
interface Stage {
  readonly decision: PolicyDecision;
  readonly final: boolean;
  readonly target?: Target;
  readonly details?: RequestDetails;
}

const allow = (reason: string): PolicyDecision => Object.freeze({ allowed: true, reason });
const deny = (reason: string): PolicyDecision => Object.freeze({ allowed: false, reason });
const finalStage = (decision: PolicyDecision): Stage => ({ decision, final: true });

function optionError(message: string): BwError {
  return new BwError("INVALID_ARGUMENT", `NetworkPolicy: ${message}`);
}

function readBoolean(options: Record<string, unknown>, key: string): boolean {
  const value = options[key];
  if (value === undefined) return true;
  if (typeof value !== "boolean") throw optionError(`${key} must be a boolean`);
  return value;
}

function readPorts(options: Record<string, unknown>): readonly number[] {
  const value = options["onlyPorts"];
  if (value === undefined || value === null) return Object.freeze([]);
  if (!Array.isArray(value) || value.length > MAX_ONLY_PORTS) throw optionError(`onlyPorts must be a list of at most ${MAX_ONLY_PORTS} ports`);
  for (const port of value) {
    if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) throw optionError(`onlyPorts entry ${JSON.stringify(port)} is not a port from 1 to 65535`);
  }
  return Object.freeze([...new Set(value as number[])].sort((a, b) => a - b));
}

function describeHost(target: Target): string {
  const host = hostForUrl(target.host);
  return target.from === undefined ? host : `${host} (resolved from ${hostForUrl(target.from)})`;
}

/** How to let this one target through, for a refusal a person can lift: the name they asked for, with its port. */
function allowHint(target: Target): string {
  return `; to reach it, allow it: --allow-host ${hostForUrl(target.from ?? target.host)}:${target.port} (allowHosts)`;
}

function metadataReason(target: Target): string | undefined {
  const culprit = [target.host, target.from].find((h) => h?.class === "metadata");
  if (culprit === undefined) return undefined;
  const carried = culprit.embeddedIPv4 === undefined ? "" : `, which carries ${culprit.embeddedIPv4},`;
  return `${hostForUrl(culprit)}${carried} is a cloud metadata endpoint and can never be reached`;
}

export class NetworkPolicy {
  readonly allowLoopback: boolean;
  readonly allowPrivateNetwork: boolean;
  /** Canonical spellings of the entries, in the order given. */
  readonly allowHosts: readonly string[];
  readonly blockHosts: readonly string[];
  /** When not empty, the only ports reachable (an allowHosts entry still opens its own). */
  readonly onlyPorts: readonly number[];
  readonly custom: CustomHook | undefined;
  readonly #allow: readonly HostPattern[];
  readonly #block: readonly HostPattern[];

  constructor(options: NetworkPolicyOptions = {}) {
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw optionError("options must be an object");
    }
    const record = options as Record<string, unknown>;
    // A misspelt switch would silently leave the default (open) posture in place.
    const unknown = Object.keys(record).filter((key) => !OPTION_KEYS.includes(key));
    if (unknown.length > 0) throw optionError(`unknown option ${JSON.stringify(unknown[0])}`);
    this.allowLoopback = readBoolean(record, "allowLoopback");
    this.allowPrivateNetwork = readBoolean(record, "allowPrivateNetwork");
    this.#allow = parseHostPatterns(record["allowHosts"], "allowHosts");
    this.#block = parseHostPatterns(record["blockHosts"], "blockHosts");
    this.allowHosts = Object.freeze(this.#allow.map((p) => p.text));
    this.blockHosts = Object.freeze(this.#block.map((p) => p.text));
    this.onlyPorts = readPorts(record);
    const custom = record["custom"];
    if (custom !== undefined && custom !== null && typeof custom !== "function") {
      throw optionError("custom must be a function");
    }
    this.custom = typeof custom === "function" ? (custom as CustomHook) : undefined;
  }

  /** A named posture (`public-web`, `default`) with other options over it: `NetworkPolicy.preset("public-web", { allowHosts })`. */
  static preset(name: PolicyPresetName, options: NetworkPolicyOptions = {}): NetworkPolicy {
    return new NetworkPolicy({ ...policyPreset(name), ...options });
  }

  /** Rebuild a policy from options received over a socket; refuses a hook and unknown keys. */
  static fromJSON(value: unknown): NetworkPolicy {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw optionError("serialised options must be an object");
    }
    if (Object.hasOwn(value, "custom")) throw optionError("a custom hook cannot cross a process boundary");
    return new NetworkPolicy(value as NetworkPolicyOptions);
  }

  /** Loopback is reachable when either switch allows it. */
  get loopbackAllowed(): boolean {
    return this.allowLoopback || this.allowPrivateNetwork;
  }

  /**
   * Whether answers may be cached by scheme + host + port: only a stock policy,
   * whose answer depends on nothing else. Subclasses may decide on anything.
   */
  get cacheable(): boolean {
    return this.custom === undefined && Object.getPrototypeOf(this) === NetworkPolicy.prototype;
  }

  /** The options a daemon needs to rebuild this policy; throws for a policy with a hook. */
  toOptions(): SerializablePolicyOptions {
    if (this.custom !== undefined) {
      throw optionError("a policy with a custom hook cannot be serialised; it runs in the process that created it");
    }
    return this.describe();
  }

  toJSON(): SerializablePolicyOptions {
    return this.toOptions();
  }

  /** The effective policy for display (`doctor`): canonical entries, and whether a hook is installed. */
  describe(): SerializablePolicyOptions & { readonly custom?: true } {
    const base = {
      allowLoopback: this.allowLoopback,
      allowPrivateNetwork: this.allowPrivateNetwork,
      allowHosts: [...this.allowHosts],
      blockHosts: [...this.blockHosts],
      onlyPorts: [...this.onlyPorts],
    };
    return this.custom === undefined ? base : { ...base, custom: true };
  }

  /** The decision without the custom hook: synchronous, for the daemon's stock policies. */
  checkBuiltIn(url: string, details?: RequestDetails): PolicyDecision {
    return this.#builtIn(url, details).decision;
  }

  /** The full decision, hook included. Never rejects: every failure is a denial. */
  async check(url: string, details?: RequestDetails): Promise<PolicyDecision> {
    let stage: Stage;
    try {
      stage = this.#builtIn(url, details);
    } catch (error) {
      return deny(`policy check failed: ${describeError(error)}`);
    }
    const hook = this.custom;
    if (hook === undefined || stage.final || stage.target === undefined || stage.details === undefined) {
      return stage.decision;
    }
    let decision: PolicyDecision | undefined | typeof invalidDecision;
    try {
      const returned = await hook(stage.target.href, Object.freeze({ ...stage.details }));
      decision = readCustomDecision(returned);
    } catch (error) {
      return deny(`custom policy hook failed: ${describeError(error)}`);
    }
    if (decision === invalidDecision) return deny("custom policy hook returned something that is not a decision");
    if (decision === undefined) return stage.decision;
    if (decision.allowed) {
      const floor = metadataReason(stage.target);
      if (floor !== undefined) return deny(floor);
    }
    return decision;
  }

  #builtIn(url: unknown, rawDetails: unknown): Stage {
    const details = validateDetails(rawDetails);
    if (typeof details === "string") return finalStage(deny(details));
    if (typeof url !== "string" || url.length === 0) return finalStage(deny("URL is empty"));
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return finalStage(deny("URL cannot be parsed"));
    }
    const scheme = parsed.protocol;
    if (scheme === "about:") {
      if (parsed.pathname === "blank") return finalStage(allow("about:blank loads nothing from the network"));
      return finalStage(deny(`${parsed.href.split(/[?#]/)[0]} is not allowed; only about:blank is`));
    }
    if (LOCAL_SCHEMES.includes(scheme)) return finalStage(allow(`${scheme} URLs load nothing from the network`));
    const defaultPort = DEFAULT_PORTS[scheme];
    if (defaultPort === undefined) {
      return finalStage(deny(`scheme ${scheme} is not allowed; only http, https, ws and wss are routable`));
    }
    const host = classifyHost(parsed.hostname);
    if (!host.ok) return finalStage(deny(`malformed host ${JSON.stringify(parsed.hostname)}: ${host.reason}`));
    let from: HostClassification | undefined;
    if (details.resolvedFrom !== undefined) {
      const verdict = classifyHost(details.resolvedFrom);
      if (!verdict.ok) return finalStage(deny(`malformed resolvedFrom host: ${verdict.reason}`));
      from = verdict;
    }
    const target: Target = { host, from, port: parsed.port === "" ? defaultPort : Number(parsed.port), href: parsed.href };
    const stage = (decision: PolicyDecision): Stage => ({ decision, final: false, target, details });
    // The hook still sees a metadata request (to log it, say); the re-check after it keeps the answer a denial.
    const floor = metadataReason(target);
    if (floor !== undefined) return stage(deny(floor));
    const hosts = from === undefined ? [host] : [host, from];
    const blocked = findMatchingPattern(this.#block, hosts, target.port);
    if (blocked !== undefined) return stage(deny(`${describeHost(target)} matches blockHosts entry ${blocked.text}`));
    const allowed = findMatchingPattern(this.#allow, hosts, target.port);
    if (allowed !== undefined) return stage(allow(`${describeHost(target)} matches allowHosts entry ${allowed.text}`));
    const byClass = this.#classDecision(target);
    // A host its class refuses is refused for that; a port is judged only for a host that may be reached.
    if (byClass.allowed && this.onlyPorts.length > 0 && !this.onlyPorts.includes(target.port)) {
      return stage(deny(`port ${target.port} of ${describeHost(target)} is not allowed; only ports ${this.onlyPorts.join(", ")} are (onlyPorts)${allowHint(target)}`));
    }
    return stage(byClass);
  }

  #classDecision(target: Target): PolicyDecision {
    // A resolved address is held to its own class and to the class of the name it came from.
    const cls = target.from === undefined ? target.host.class : stricterClass(target.host.class, target.from.class);
    const label = describeHost(target);
    if (cls === "loopback") {
      return this.loopbackAllowed
        ? allow(`${label} is a loopback host and loopback is allowed`)
        : deny(`${label} is a loopback host and loopback is blocked (allowLoopback: false, allowPrivateNetwork: false)${allowHint(target)}`);
    }
    if (cls === "private") {
      return this.allowPrivateNetwork
        ? allow(`${label} is a private-network host and private networks are allowed`)
        : deny(`${label} is a private-network host and private networks are blocked (allowPrivateNetwork: false)${allowHint(target)}`);
    }
    return allow(`${label} is a public host`);
  }
}
