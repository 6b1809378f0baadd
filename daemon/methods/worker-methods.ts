// What the worker may ask of the daemon while a snippet runs: a small fixed
// set (guard checks, vault fill/list/generate, artifact reservations). Owner
// methods never appear here; this registry is all the worker's pipe reaches.
import type { MethodRegistry } from "../../shared/rpc.js";
import type { Daemon } from "../daemon.js";

export function registerWorkerMethods(registry: MethodRegistry<void>, daemon: Daemon): void {
  void registry;
  void daemon;
}
