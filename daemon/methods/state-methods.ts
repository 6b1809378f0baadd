// session.create and state.save / state.list / state.remove: owner methods on
// the socket only (the worker's pipe has none of them). A saved state's
// content never leaves the daemon in a reply: callers get names and sizes.
import { SessionCreate, StateList, StateRemove, StateSave } from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import { specOf } from "../../shared/session-settings.js";
import type { StateStore } from "../states/state-store.js";
import type { ClientConnection, RunHost } from "./connection.js";
import { assertMayUse } from "./serve-names.js";

export function registerStateMethods(registry: MethodRegistry<ClientConnection>, daemon: RunHost & { readonly states: Pick<StateStore, "list" | "remove"> }): void {
  registry.define(SessionCreate, async (params, connection) => {
    daemon.assertAccepting();
    const spec = specOf(params);
    assertMayUse(connection, "session", params.session);
    assertMayUse(connection, "state", spec.state);
    const created = await daemon.sessions.create(params.session, spec);
    return { session: params.session, created, isolated: spec.isolated, settings: spec.settings, ...(spec.state === undefined ? {} : { state: spec.state }) };
  });
  registry.define(StateSave, (params, connection) => {
    daemon.assertAccepting();
    assertMayUse(connection, "session", params.session);
    assertMayUse(connection, "state", params.name);
    return daemon.sessions.saveState(params.session, params.name);
  });
  registry.define(StateList, () => daemon.states.list());
  registry.define(StateRemove, async (params, connection) => {
    assertMayUse(connection, "state", params.name);
    await daemon.states.remove(params.name);
    return { removed: true as const, name: params.name };
  });
}
