// Isolated sessions and saved browser state. client → daemon: `session.create`
// and `state.save` / `state.list` / `state.remove` (owner methods, socket
// only). daemon → worker: `worker.createSession` (a session's own browser
// context, seeded with a state the daemon decrypted) and `worker.saveState`
// (a session's storage, in clear, for the daemon to encrypt). The vault key
// never crosses the pipe; the state does, base64 in one frame.
import type { StateSettings } from "../../config.js";
import { BwError } from "../errors.js";
import { MAX_FRAME_BYTES } from "../framing.js";
import { checkSessionSettings, fieldLabels, type SessionSettings } from "../../session-settings.js";
import { bool, custom, num, obj, optional, str } from "../validate.js";
import { declare, nameParam } from "./declare.js";

/** Saved states live in <home>/states/<profile>/<name>.state. */
export const STATES_DIR_NAME = "states";
export const STATE_FILE_SUFFIX = ".state";

const settingsParam = custom((value, path) => checkSessionSettings(value, fieldLabels(path), path));
export const stateNameParam = nameParam("state");

/** What a create call may state (session.create, and session.exec when its call creates the session). */
export const createFields = {
  isolated: optional(bool()),
  settings: optional(settingsParam),
  state: optional(stateNameParam),
};
export const createParam = obj(createFields);

export interface SessionCreateResult {
  session: string;
  /** false: the session existed with these very settings (a no-op). */
  created: boolean;
  isolated: boolean;
  settings: SessionSettings;
  state?: string;
}

export const SessionCreate = declare<SessionCreateResult>()("session.create", obj({ session: nameParam("session"), ...createFields }));

export interface StateInfo {
  name: string;
  /** The file's size on disk (encrypted). */
  bytes: number;
  savedAt: string;
}

export interface StateSaveResult extends StateInfo {
  session: string;
  cookies: number;
  origins: number;
}

export interface StateListing {
  profile: string;
  dir: string;
  states: StateInfo[];
  totalBytes: number;
  caps: StateSettings;
}

export const StateSave = declare<StateSaveResult>()("state.save", obj({ session: nameParam("session"), name: stateNameParam }));
export const StateList = declare<StateListing>()("state.list", optional(obj({})));
export const StateRemove = declare<{ removed: true; name: string }>()("state.remove", obj({ name: stateNameParam }));

// ---- daemon → worker -------------------------------------------------------

/** A result's `true` field, and nothing else. */
const literalTrue = custom((v, p) => { if (v !== true) throw new BwError("INVALID_ARGUMENT", `${p}: expected true`); return true as const; });

/** A state on the pipe: base64 of its JSON, so its size is known and no escaping can grow it past the frame. */
const stateBlob = str({ min: 1, max: 7 * 1024 * 1024, pattern: /^[A-Za-z0-9+/]+=*$/ });

export const WorkerCreateSession = declare<{ ok: true; placement?: string }>()("worker.createSession", obj({
  session: nameParam("session"),
  settings: settingsParam,
  state: optional(stateBlob),
}), obj({ ok: literalTrue, placement: optional(str({ max: 64 * 1024 })) }));

export interface WorkerSavedState {
  /** base64 of the storage state's JSON. */
  state: string;
  cookies: number;
  origins: number;
}

const saveParams = obj({
  session: nameParam("session"),
  /** The worker refuses a state larger than this (LIMIT_EXCEEDED) instead of sending it. */
  maxBytes: num({ min: 1, max: 6 * 1024 * 1024, integer: true }),
});

const savedResult = obj({ state: str({ min: 1, max: MAX_FRAME_BYTES, pattern: /^[A-Za-z0-9+/]+=*$/ }), cookies: num({ min: 0, integer: true }), origins: num({ min: 0, integer: true }) });

export const WorkerSaveState = declare<WorkerSavedState>()("worker.saveState", saveParams, savedResult);

/**
 * An isolated session's storage after a run, for the daemon to keep sealed: sent only when it changed
 * since the last one sent (`unchanged` otherwise, or when the session has no live context to read).
 * The worker keeps the last one sent to seed the context it makes after a browser crash.
 */
export const WorkerAutosaveState = declare<WorkerSavedState | { unchanged: true }>()("worker.autosaveState", saveParams,
  custom((value, path) => {
    if (typeof value === "object" && value !== null && "unchanged" in value) return obj({ unchanged: literalTrue })(value, path);
    return savedResult(value, path);
  }));
