// What crosses between the worker's main thread (Playwright, pages, the
// session's runs) and a session's realm thread (its vm context). Messages
// are structured-clone data, declared here once for both sides. A realm is
// our code, but it runs among snippet code: the main thread checks the shape
// of everything it receives and answers nothing it does not expect.

import type { MessagePort as WorkerPort } from "node:worker_threads";
import type { LaneLimits } from "../../../shared/config-limits.js";

/** A sandbox message as the context's host functions receive it (`op`, `token`, …). */
export type SandboxMessage = Record<string, unknown>;

/** An error as it crosses: its name, message and stable code (toErrorReply in daemon/browser-worker/realm/context.ts makes one). */
export interface ErrorShape {
  name: string;
  message: string;
  code?: string;
}

export type Reply = { ok: true; value: unknown } | { ok: false; error: ErrorShape };

/** Main thread → realm. */
export type ToRealm =
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
  | { t: "sync"; id: number; m: SandboxMessage }
  | { t: "async"; id: number; m: SandboxMessage }
  | { t: "note"; m: SandboxMessage }
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
