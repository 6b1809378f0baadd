// The flags that say how a session is made (`session create`, and `exec`/
// `repl` when their call creates the session), and their mapping onto
// session.create's params. Checked here, so an error names the flag typed.
import { BwError } from "../shared/protocol/errors.js";
import { validateName } from "../shared/names.js";
import { checkSessionSettings, FLAG_LABELS, FLAG_SPEC_LABELS, specOf } from "../shared/session-settings.js";
import type { CreateSessionOptions } from "../client/index.js";
import type { OptionSpec } from "./options.js";

export interface SessionCreateArgs {
  isolated?: boolean;
  viewport?: string;
  "device-scale"?: string;
  locale?: string;
  timezone?: string;
  "color-scheme"?: string;
  "reduced-motion"?: boolean;
  "user-agent"?: string;
  geolocation?: string;
  "geolocation-origin"?: string;
  state?: string;
}

export const SESSION_CREATE_OPTIONS: readonly OptionSpec[] = [
  { name: "isolated", type: "boolean", describe: "Session: its own browser context (cookies, storage, settings), not the profile's shared one" },
  { name: "viewport", type: "string", describe: "Isolated session: viewport WIDTHxHEIGHT, e.g. 1280x800" },
  { name: "device-scale", type: "string", describe: "Isolated session: device scale factor (0.25 to 5)" },
  { name: "locale", type: "string", describe: "Isolated session: BCP 47 locale, e.g. de-DE" },
  { name: "timezone", type: "string", describe: "Isolated session: IANA time zone, e.g. Europe/Berlin" },
  { name: "color-scheme", type: "string", describe: "Isolated session: light or dark" },
  { name: "reduced-motion", type: "boolean", describe: "Isolated session: prefers-reduced-motion: reduce" },
  { name: "user-agent", type: "string", describe: "Isolated session: the User-Agent string" },
  { name: "geolocation", type: "string", describe: "Isolated session: LAT,LON (with --geolocation-origin; negative values as --geolocation=-33.9,151.2)" },
  { name: "geolocation-origin", type: "string", describe: "Isolated session: the one origin the position is granted to" },
  { name: "state", type: "string", describe: "Isolated session: start from this saved state (betterwright state list)" },
];

function bad(flag: string, problem: string): never {
  throw new BwError("INVALID_ARGUMENT", `${flag}: ${problem}`);
}

function viewportOf(text: string): { width: number; height: number } {
  const match = /^\s*(\d{1,6})\s*[xX×]\s*(\d{1,6})\s*$/.exec(text);
  if (!match) return bad("--viewport", `expected WIDTHxHEIGHT such as 1280x800, got ${JSON.stringify(text)}`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

function numberOf(text: string, flag: string, example: string): number {
  const n = text.trim() === "" ? NaN : Number(text);
  if (!Number.isFinite(n)) bad(flag, `expected a number such as ${example}, got ${JSON.stringify(text)}`);
  return n;
}

function positionOf(text: string): { latitude: number; longitude: number } {
  const parts = text.split(",");
  if (parts.length !== 2) bad("--geolocation", `expected LAT,LON such as 52.52,13.40, got ${JSON.stringify(text)}`);
  return { latitude: numberOf(parts[0]!, "--geolocation", "52.52,13.40"), longitude: numberOf(parts[1]!, "--geolocation", "52.52,13.40") };
}

/** session.create's params from the flags, checked; undefined when no flag says how to make the session. */
export function createParamsFrom(args: SessionCreateArgs): CreateSessionOptions | undefined {
  const raw: Record<string, unknown> = {};
  if (args.viewport !== undefined) raw.viewport = viewportOf(args.viewport);
  if (args["device-scale"] !== undefined) raw.deviceScaleFactor = numberOf(args["device-scale"], "--device-scale", "2");
  if (args.locale !== undefined) raw.locale = args.locale;
  if (args.timezone !== undefined) raw.timezone = args.timezone;
  if (args["color-scheme"] !== undefined) raw.colorScheme = args["color-scheme"];
  if (args["reduced-motion"] === true) raw.reducedMotion = true;
  if (args["user-agent"] !== undefined) raw.userAgent = args["user-agent"];
  if (args.geolocation !== undefined) raw.geolocation = { ...positionOf(args.geolocation), origin: args["geolocation-origin"] };
  else if (args["geolocation-origin"] !== undefined) bad("--geolocation-origin", "needs --geolocation LAT,LON");
  const state = args.state === undefined ? undefined : validateName(args.state, "state");
  if (args.isolated === undefined && Object.keys(raw).length === 0 && state === undefined) return undefined;
  const settings = checkSessionSettings(raw, FLAG_LABELS);
  const spec = specOf({ isolated: args.isolated, settings, state }, FLAG_SPEC_LABELS);
  return {
    isolated: spec.isolated,
    ...(Object.keys(spec.settings).length > 0 ? { settings: spec.settings } : {}),
    ...(spec.state === undefined ? {} : { state: spec.state }),
  };
}
