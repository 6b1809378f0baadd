// Flags every command takes, and their mapping onto the config module's input.
import type { Argv } from "yargs";
import type { FlagInput } from "../shared/config.js";

export interface GlobalArgs {
  profile?: string;
  home?: string;
  daemon?: boolean;
  headed?: boolean;
  browser?: string;
  json?: boolean;
  "block-private-network"?: boolean;
  "block-loopback"?: boolean;
  "allow-host"?: string[];
  "block-host"?: string[];
}

export function withGlobalOptions<T>(argv: Argv<T>): Argv<T & GlobalArgs> {
  return argv
    .option("profile", { type: "string", describe: "Browser identity: its own daemon, cookie jar and transcripts (env BETTERWRIGHT_PROFILE)", global: true })
    .option("home", { type: "string", describe: "State folder (env BETTERWRIGHT_HOME, default ~/.betterwright)", global: true })
    .option("daemon", { type: "boolean", describe: "Use the profile's daemon; --no-daemon runs a one-shot private browser", global: true })
    .option("headed", { type: "boolean", describe: "Show the browser window (env BETTERWRIGHT_HEADED)", global: true })
    .option("browser", { type: "string", describe: "Chromium executable (env BETTERWRIGHT_BROWSER)", global: true })
    .option("json", { type: "boolean", describe: "Machine-readable output, errors included", global: true })
    .option("block-private-network", { type: "boolean", describe: "Policy: deny RFC 1918, link-local and *.internal/*.local hosts", global: true })
    .option("block-loopback", { type: "boolean", describe: "Policy: deny 127.0.0.0/8 and localhost (implies --block-private-network)", global: true })
    .option("allow-host", { type: "string", array: true, describe: "Policy: allow HOST[:PORT] (and its subdomains)", global: true })
    .option("block-host", { type: "string", array: true, describe: "Policy: deny HOST (and its subdomains)", global: true })
    .group(["profile", "home", "daemon", "headed", "browser", "json"], "Global options:")
    .group(["block-private-network", "block-loopback", "allow-host", "block-host"], "Policy options:") as Argv<T & GlobalArgs>;
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
  if (args["block-private-network"]) flags.blockPrivateNetwork = true;
  if (args["block-loopback"]) flags.blockLoopback = true;
  if (args["allow-host"]?.length) flags.allowHost = args["allow-host"];
  if (args["block-host"]?.length) flags.blockHost = args["block-host"];
  return flags;
}
