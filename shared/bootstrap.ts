// What a client hands a daemon it spawns, on the daemon's stdin (never in
// argv, which any user can read), and what the daemon answers on fd 3 once it
// serves, or why it cannot.
import type { DaemonSettings } from "./config.js";
import type { ErrorShape } from "./protocol/errors.js";
import { nameProblem } from "./names.js";
import { anyObject, bool, custom, num, obj, optional, str } from "./protocol/validate.js";
import { BwError } from "./protocol/errors.js";

export interface DaemonBootstrap {
  home: string;
  profile: string;
  settings: DaemonSettings;
  defaultTimeoutMs: number;
  /** Spawned for a call that needs a browser: start the worker (and so Chromium) at once, in parallel with the greeting. */
  prestartWorker?: boolean;
}

export type DaemonReadiness =
  /** `recovered`: the holder of the profile it took over, which had died holding it (killed). */
  | { status: "ready"; pid: number; recovered?: { pid: number; kind: "daemon" | "in-process" } }
  /** Another daemon holds the profile lock; it serves (or is about to). */
  | { status: "exists"; pid: number }
  | { status: "error"; error: ErrorShape };

export const validateBootstrap = obj({
  home: str({ min: 1 }),
  profile: custom((value, path) => {
    if (value === "default") return value;
    const problem = nameProblem(value, "profile");
    if (problem) throw new BwError("INVALID_ARGUMENT", `${path}: ${problem}`);
    return value as string;
  }),
  settings: anyObject(),
  defaultTimeoutMs: num({ min: 1, integer: true }),
  prestartWorker: optional(bool()),
});
