// A flag whose value is JSON (`exec --args`, an operation's `--args`): parsed,
// or refused with INVALID_ARGUMENT naming the flag (exit 2).
import { BwError } from "../shared/protocol/errors.js";

export function parseJsonFlag(flag: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BwError("INVALID_ARGUMENT", `${flag}: not valid JSON`);
  }
}
