// Describing an error for a log line without ever running code that came
// with it. A value from a snippet's vm context (thrown into host code, or the
// reason of an unhandled rejection) may be a Proxy, carry getters, or have its
// stack formatted by hooks of its realm: host code only reads errors of its
// own realm, and says no more than that about anything else.
import { types } from "node:util";

/** Whether `value` is an Error made in this realm, decided with no trap, getter or hasInstance of the value run. */
export function isOwnRealmError(value: unknown): value is Error {
  try {
    if (typeof value !== "object" || value === null || types.isProxy(value) || !types.isNativeError(value)) return false;
    for (let proto = Reflect.getPrototypeOf(value); proto !== null; proto = Reflect.getPrototypeOf(proto)) {
      if (types.isProxy(proto)) return false;
      if (proto === Error.prototype) return true;
    }
    return false;
  } catch {
    return false;
  }
}

export const FOREIGN_VALUE = "a value that is not an error of this process (not shown)";

/** The stack (or message) of an error of this realm; a primitive as text; anything else is not looked at. */
export function errorText(error: unknown): string {
  if (isOwnRealmError(error)) {
    try {
      const text = error.stack ?? error.message;
      return typeof text === "string" ? text : FOREIGN_VALUE;
    } catch {
      return FOREIGN_VALUE;
    }
  }
  if (error === null || (typeof error !== "object" && typeof error !== "function")) return String(error);
  return FOREIGN_VALUE;
}
