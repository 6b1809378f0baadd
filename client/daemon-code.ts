// Where the clients find the daemon's code: the script a spawn starts, and the
// host the in-process mode runs, loaded by the one dynamic import from client
// code into daemon code. This file sits one folder below dist/, as the bundled
// CLI (dist/bin) does, so the same relative URLs find the same files from either.
import { fileURLToPath } from "node:url";

export const DAEMON_MAIN = fileURLToPath(new URL("../daemon/main.js", import.meta.url));

export const loadInProcessHost = () => import("../daemon/in-process.js");
