// A real daemon with no browser, for protocol tests: started by a library
// call that needs no browser, found through its info file.
import { BetterWright } from "../../dist/client/index.js";
import { layoutFor } from "../../shared/paths.js";
import { cleanEnv, daemonPids, homeReady, tempHome } from "./cli.js";

export interface IdleDaemon {
  home: string;
  socketPath: string;
  pid: number;
}

export async function startIdleDaemon(prefix: string): Promise<IdleDaemon> {
  const home = tempHome(prefix);
  await homeReady(home);
  const bw = new BetterWright({ home, env: cleanEnv(home) });
  const sessions = await bw.sessions();
  if (sessions.length !== 0) throw new Error("a fresh daemon should have no session");
  await bw.close();
  const [pid] = daemonPids(home);
  if (pid === undefined) throw new Error("the daemon wrote no info file");
  return { home, socketPath: layoutFor(home).socketPath, pid };
}
