// session.create and state.save / state.list / state.remove: owner methods on
// the socket only (the worker's pipe has none of them). A saved state's
// content never leaves the daemon in a reply: callers get names and sizes.
import { SessionCreate, StateList, StateRemove, StateSave } from "../../shared/protocol/index.js";
import type { MethodRegistry } from "../../shared/rpc.js";
import { specOf } from "../../shared/session-settings.js";
import type { ConnectionContext, Daemon } from "../daemon.js";

export function registerStateMethods(registry: MethodRegistry<ConnectionContext>, daemon: Daemon): void {
  registry.define(SessionCreate, async (params) => {
    daemon.assertAccepting();
    const spec = specOf(params);
    const created = await daemon.sessions.create(params.session, spec);
    return { session: params.session, created, isolated: spec.isolated, settings: spec.settings, ...(spec.state === undefined ? {} : { state: spec.state }) };
  });
  registry.define(StateSave, (params) => {
    daemon.assertAccepting();
    return daemon.sessions.saveState(params.session, params.name);
  });
  registry.define(StateList, () => daemon.states.list());
  registry.define(StateRemove, async (params) => {
    await daemon.states.remove(params.name);
    return { removed: true as const, name: params.name };
  });
}
