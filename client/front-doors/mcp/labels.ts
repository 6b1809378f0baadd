// Session labels: a few key=value pairs an agent host gives the sessions it
// makes (role=buyer), shown by session_list and the sessions resource. They
// are kept by this MCP server for the sessions it labelled, not by the daemon.
import { BwError } from "../../../shared/protocol/errors.js";
import { UNSAFE_CHAR } from "../../../shared/safe-text.js";
import { MAX_LABEL_CHARS, MAX_LABELS } from "./front-door-tools.js";

const KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;

/** `key=value` words as a record; INVALID_ARGUMENT names the bad one. */
export function parseLabels(words: readonly string[]): Record<string, string> {
  if (words.length > MAX_LABELS) throw new BwError("INVALID_ARGUMENT", `labels: at most ${MAX_LABELS}`);
  const labels: Record<string, string> = {};
  for (const [i, word] of words.entries()) {
    const at = word.indexOf("=");
    const key = at < 0 ? word : word.slice(0, at);
    const value = at < 0 ? "" : word.slice(at + 1);
    if (!KEY.test(key)) throw new BwError("INVALID_ARGUMENT", `labels[${i}]: expected key=value with a key of letters, digits, . - _ (at most 32)`);
    if (word.length > MAX_LABEL_CHARS || UNSAFE_CHAR.test(value)) throw new BwError("INVALID_ARGUMENT", `labels[${i}]: the value must be printable and the label at most ${MAX_LABEL_CHARS} characters`);
    labels[key] = value;
  }
  return labels;
}

export class LabelBook {
  private readonly bySession = new Map<string, Record<string, string>>();

  set(session: string, labels: Record<string, string>): void {
    if (Object.keys(labels).length === 0) this.bySession.delete(session);
    else this.bySession.set(session, labels);
  }

  get(session: string): Record<string, string> | undefined {
    return this.bySession.get(session);
  }

  forget(session: string): void {
    this.bySession.delete(session);
  }
}
