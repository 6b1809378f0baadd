// Flags every command takes, and their mapping onto the config module's input.
import type { Argv } from "yargs";
import type { FlagInput } from "../shared/config.js";
import { applyOptions, type OptionSpec } from "./options.js";

export interface GlobalArgs {
  profile?: string;
  home?: string;
  daemon?: boolean;
  headed?: boolean;
  browser?: string;
  json?: boolean;
  "require-containment"?: boolean;
  "browser-endpoint"?: string[];
  "trust-remote-egress"?: boolean;
  stealth?: boolean;
  "block-private-network"?: boolean;
  "block-loopback"?: boolean;
  "allow-host"?: string[];
  "block-host"?: string[];
  policy?: string;
}

export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { name: "profile", type: "string", describe: "Browser identity: its own daemon, cookie jar and transcripts (env BETTERWRIGHT_PROFILE)" },
  { name: "home", type: "string", describe: "State folder (env BETTERWRIGHT_HOME, default ~/.betterwright)" },
  { name: "daemon", type: "boolean", describe: "Use the profile's daemon; --no-daemon runs a one-shot private browser in this process" },
  { name: "headed", type: "boolean", describe: "Show the browser window (env BETTERWRIGHT_HEADED)" },
  { name: "browser", type: "string", describe: "Chromium executable (env BETTERWRIGHT_BROWSER)" },
  { name: "json", type: "boolean", describe: "Machine-readable output, errors included" },
  { name: "require-containment", type: "boolean", describe: "Refuse to start the daemon when its worker cannot be contained (env BETTERWRIGHT_REQUIRE_CONTAINMENT)" },
  { name: "browser-endpoint", type: "array", describe: "Place sessions on a remote browser: ws://… (Playwright browser server) or cdp+http://… (repeatable; env BETTERWRIGHT_BROWSER_ENDPOINTS; see docs/remote-browsers.md)" },
  { name: "trust-remote-egress", type: "boolean", describe: "Allow remote browsers the guard cannot hold (CDP endpoints); every envelope then warns GUARD_NOT_ENFORCED" },
  { name: "stealth", type: "boolean", describe: "Snippets' page evaluation in an isolated world, automation traces removed; page globals unreadable (env BETTERWRIGHT_STEALTH; docs/stealth.md)" },
];

export const POLICY_OPTIONS: readonly OptionSpec[] = [
  { name: "policy", type: "string", describe: "Policy preset: public-web (public addresses on ports 80 and 443 only) or default; the flags below apply over it (env BETTERWRIGHT_POLICY)" },
  { name: "block-private-network", type: "boolean", describe: "Policy: deny RFC 1918, link-local and *.internal/*.local hosts" },
  { name: "block-loopback", type: "boolean", describe: "Policy: deny 127.0.0.0/8 and localhost (implies --block-private-network)" },
  { name: "allow-host", type: "array", describe: "Policy: allow HOST[:PORT] (and its subdomains)" },
  { name: "block-host", type: "array", describe: "Policy: deny HOST (and its subdomains)" },
];

export function withGlobalOptions<T>(argv: Argv<T>): Argv<T & GlobalArgs> {
  return applyOptions(applyOptions(argv, GLOBAL_OPTIONS, true), POLICY_OPTIONS, true)
    .group(GLOBAL_OPTIONS.map((o) => o.name), "Global options:")
    .group(POLICY_OPTIONS.map((o) => o.name), "Policy options:") as Argv<T & GlobalArgs>;
}

export function flagsFrom(args: GlobalArgs & { session?: string; timeout?: number }): FlagInput {
  const flags: FlagInput = {};
  if (args.profile !== undefined) flags.profile = args.profile;
  if (args.home !== undefined) flags.home = args.home;
  if (args.session !== undefined) flags.session = args.session;
  if (args.browser !== undefined) flags.browser = args.browser;
  if (args.headed) flags.headed = true;
  if (args.daemon === false) flags.noDaemon = true;
  if (args.timeout !== undefined) flags.timeoutSeconds = args.timeout;
  if (args["require-containment"]) flags.requireContainment = true;
  if (args["block-private-network"]) flags.blockPrivateNetwork = true;
  if (args["block-loopback"]) flags.blockLoopback = true;
  if (args["allow-host"]?.length) flags.allowHost = args["allow-host"];
  if (args["block-host"]?.length) flags.blockHost = args["block-host"];
  if (args.policy !== undefined) flags.policy = args.policy;
  if (args["browser-endpoint"]?.length) flags.browserEndpoint = args["browser-endpoint"].map(String);
  if (args["trust-remote-egress"]) flags.trustRemoteEgress = true;
  if (args.stealth) flags.stealth = true;
  return flags;
}
