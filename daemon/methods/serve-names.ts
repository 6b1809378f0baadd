// betterwright serve's sessions (named by UUID) and saved states (`http-…`)
// belong to its HTTP API's callers: another client of the same profile's
// daemon (the CLI, MCP, a library program) neither drives, closes nor loads
// them unless its connection said at hello that it may.
import { BwError } from "../../shared/protocol/errors.js";
import { isServeName } from "../../shared/names.js";
import type { ClientConnection } from "./connection.js";

export function assertMayUse(connection: ClientConnection, kind: "session" | "state", name: string | undefined): void {
  if (name === undefined || connection.serveNames === true || !isServeName(name, kind)) return;
  const shape = kind === "session" ? "a UUID" : "beginning with http-";
  throw new BwError(
    "INVALID_ARGUMENT",
    `${kind} name ${name}: ${kind} names ${shape} belong to betterwright serve's sessions; use its HTTP API, another name, or (a library program) new BetterWright({ serveSessions: true })`,
  );
}
