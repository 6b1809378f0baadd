// What a socket method knows of the connection it serves, and of the daemon
// behind it: the narrow views the daemon hands its method files, so that none
// of them reaches the daemon itself.
import type { HomeLayout } from "../../shared/paths.js";
import type { SessionRegistry } from "../sessions/sessions.js";

export interface ClientConnection {
  greeted: boolean;
  /** Said at hello: this connection may use betterwright serve's session and state names. */
  serveNames?: boolean;
}

/** What the methods that start runs and close sessions use. */
export interface RunHost {
  readonly sessions: Pick<SessionRegistry, "exec" | "attach" | "cancel" | "list" | "close" | "create" | "saveState">;
  readonly layout: HomeLayout;
  /** A run's budget when its call states none. */
  readonly defaultTimeoutMs: number;
  /** Throws SESSION_CLOSING (saying why) once the daemon is stopping: no new work is taken. */
  assertAccepting(): void;
}
