// What crosses between the worker's main thread (Playwright, pages, the
// session's runs) and a session's realm thread (its vm context). Messages
// are structured-clone data, declared here once for both sides. A realm is
// our code, but it runs among snippet code: the main thread checks the shape
// of everything it receives and answers nothing it does not expect.

import type { MessagePort as WorkerPort } from "node:worker_threads";
import type { LaneLimits } from "../../../shared/config-limits.js";
import { BwError } from "../../../shared/protocol/errors.js";

/** The object a facade call is on (context-facades.ts makes it; lone-call.ts makes the same), and the call. */
type FacadeCall = {
  token: string;
  target: string;
  pageId: string;
  frameId?: string | null;
  /** A locator's chain of builder steps, checked where it is replayed (facade-dispatch.ts). */
  steps?: unknown;
  method: string;
  args: unknown;
};

/** What a snippet's context asks of its host (`hostSync`/`hostAsync` in the bootstrap), by `ask`; each carries its run's token. */
export type HostRequest =
  // Answered by the realm thread itself.
  | { ask: "done"; token: string; ok: boolean; value?: unknown; error?: ErrorShape }
  | { ask: "console"; token: string; type: string; text: string }
  | { ask: "setTimeout" | "setInterval"; token: string; ms: unknown }
  | { ask: "clearTimeout"; token: string; id: unknown }
  // Answered by the main thread while the snippet waits (`listen` goes as a note).
  | { ask: "activePage" | "pages"; token: string }
  | { ask: "usePage"; token: string; pageId: string }
  | { ask: "frames"; token: string; pageId: string; which: string; frameId?: string | null; selector?: unknown }
  | { ask: "urlPattern"; token: string; glob: unknown }
  | { ask: "listen"; token: string; pageId: string; event: string; on: boolean }
  | { ask: "scope"; token: string; name: string; args: unknown }
  | (FacadeCall & { ask: "callSync" })
  // Answered by the main thread later.
  | (FacadeCall & { ask: "call" })
  /** page/frame.waitForURL's steps (url-waits.ts reads the rest). */
  | (FacadeCall & { ask: "urlWait"; [step: string]: unknown })
  | { ask: "openPage"; token: string; url: string | null }
  | { ask: "closePage"; token: string; pageId: string | null }
  | { ask: "dialog"; token: string; dialogId: string; action: string; promptText: string | null };

/** The one request a context's host answers on the realm thread without a run: URL and form parsing (host-pure.ts). */
export interface PureRequest {
  ask: "pure";
  name: unknown;
  args: unknown;
}

export type HostAsk = HostRequest["ask"];

/** Each request's fields whose type the receiver relies on: a string, a string or null (or absent), a boolean. */
type FieldType = "string" | "string?" | "boolean";
const FACADE_CALL = { target: "string", pageId: "string", frameId: "string?", method: "string" } as const;
const REQUEST_FIELDS: { readonly [A in HostAsk]: Readonly<Record<string, FieldType>> } = {
  done: { ok: "boolean" },
  console: { type: "string", text: "string" },
  setTimeout: {},
  setInterval: {},
  clearTimeout: {},
  activePage: {},
  pages: {},
  usePage: { pageId: "string" },
  frames: { pageId: "string", which: "string", frameId: "string?" },
  urlPattern: {},
  listen: { pageId: "string", event: "string", on: "boolean" },
  scope: { name: "string" },
  callSync: FACADE_CALL,
  call: FACADE_CALL,
  urlWait: FACADE_CALL,
  openPage: { url: "string?" },
  closePage: { pageId: "string?" },
  dialog: { dialogId: "string", action: "string", promptText: "string?" },
};

function fieldHolds(value: unknown, type: FieldType): boolean {
  if (type === "boolean") return typeof value === "boolean";
  return typeof value === "string" || (type === "string?" && (value === null || value === undefined));
}

/** A request of the shape its `ask` declares, else INVALID_ARGUMENT (its caller is answered, never left waiting). */
export function checkHostRequest(value: unknown): HostRequest {
  const m = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const fields = m !== undefined && typeof m.ask === "string" && Object.hasOwn(REQUEST_FIELDS, m.ask) ? REQUEST_FIELDS[m.ask as HostAsk] : undefined;
  if (m === undefined || fields === undefined || typeof m.token !== "string") throw new BwError("INVALID_ARGUMENT", "a malformed request of the realm");
  for (const key in fields) {
    if (!fieldHolds(m[key], fields[key]!)) throw new BwError("INVALID_ARGUMENT", `a malformed ${m.ask as string} request of the realm (${key})`);
  }
  return m as HostRequest;
}

/** A request as the realm thread receives it from its context: a host request, or a pure one it answers itself. */
export function checkContextRequest(value: unknown): HostRequest | PureRequest {
  if (value !== null && typeof value === "object" && (value as { ask?: unknown }).ask === "pure") return value as PureRequest;
  return checkHostRequest(value);
}

/** An error as it crosses: its name, message and stable code (toErrorReply in daemon/browser-worker/realm/context.ts makes one). */
export interface ErrorShape {
  name: string;
  message: string;
  code?: string;
}

export type Reply = { ok: true; value: unknown } | { ok: false; error: ErrorShape };

/** Main thread → realm. */
export type ToRealm =
  /** A spare thread's first message: the session it is for (with the sync port transferred). */
  | { t: "bind"; init: RealmInit }
  | { t: "run"; token: string; code: string; filename: string; active: string | null; argsJson?: string }
  /** The session's active page changed (the realm answers `page` from it without asking). */
  | { t: "active"; pageId: string | null }
  | { t: "end"; token: string }
  | { t: "emit"; token: string; event: Record<string, unknown> }
  | { t: "reply"; id: number; reply: Reply }
  /** Asks an idle realm for what retiring it would leave behind: `state` as text of at most `maxChars` (daemon/browser-worker/realm/in-context/context-state.ts). */
  | { t: "export?"; maxChars: number }
  /** A fresh realm's first message when its session's last realm was retired holding `state`. */
  | { t: "import"; state: string };

/** Realm → main thread. `sync` blocks the realm until its answer arrives on the sync port. */
export type FromRealm =
  /** `m`: a HostRequest as the realm sent it, checked by the main thread when it answers (checkHostRequest). */
  | { t: "sync"; id: number; m: unknown }
  | { t: "async"; id: number; m: unknown }
  | { t: "note"; m: unknown }
  | { t: "console"; token: string; type: string; text: string }
  | { t: "limit"; token: string; message: string }
  | { t: "done"; token: string; ok: boolean; value?: unknown; error?: ErrorShape }
  | { t: "ended"; token: string }
  /** `carry: false`: the realm holds what cannot be carried, and stays. `state` absent: it is empty. */
  | { t: "exported"; carry: boolean; state?: string };

/** The sync port's one message: the answer to the realm's blocking call `id`. */
export interface SyncAnswer {
  id: number;
  reply: Reply;
}

export interface RealmInit {
  session: string;
  scope: { async: string[]; sync: string[] };
  /** Where sync answers arrive (transferred to the realm). */
  syncPort: WorkerPort;
  /** One Int32 the main thread sets to 1 (and notifies) when a sync answer is waiting. */
  signal: SharedArrayBuffer;
  /** Console entries a run keeps; past it a console call costs almost nothing. */
  consoleCap: number;
  /** The session's caps on page calls, kept here too so that a refused call never crosses (lane-budget.ts). */
  limits: LaneLimits;
}

const str = (v: unknown): v is string => typeof v === "string";

/** The realm's message if it has a known shape, else undefined (and it is dropped). */
export function checkFromRealm(value: unknown): FromRealm | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const m = value as Record<string, unknown>;
  const obj = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
  switch (m.t) {
    case "sync":
    case "async":
      return Number.isSafeInteger(m.id) && obj(m.m) ? (m as FromRealm) : undefined;
    case "note":
      return obj(m.m) ? (m as FromRealm) : undefined;
    case "console":
      return str(m.token) && str(m.type) && str(m.text) ? (m as FromRealm) : undefined;
    case "limit":
      return str(m.token) && str(m.message) ? (m as FromRealm) : undefined;
    case "done":
      return str(m.token) && typeof m.ok === "boolean" && (m.error === undefined || obj(m.error)) ? (m as FromRealm) : undefined;
    case "ended":
      return str(m.token) ? (m as FromRealm) : undefined;
    case "exported":
      return typeof m.carry === "boolean" && (m.state === undefined || str(m.state)) ? (m as FromRealm) : undefined;
    default:
      return undefined;
  }
}
