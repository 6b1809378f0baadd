// Saved browser states for library clients (`bw.states`): a session's
// cookies, local storage and IndexedDB, sealed with the vault key by the
// profile's daemon. Only names and sizes come back; an isolated session starts
// from one with `createSession(name, { isolated: true, state })`.
import { StateList, StateRemove, StateSave, type StateListing, type StateSaveResult } from "../../shared/protocol/methods/index.js";
import type { Caller } from "./vault-api.js";

export interface StateApi {
  /** Saves `session`'s storage as `name`, replacing a state of that name (LIMIT_EXCEEDED past the caps). */
  save(name: string, options: { session: string }): Promise<StateSaveResult>;
  /** This profile's saved states (names, sizes, times), their total and the caps; never starts a browser. */
  list(): Promise<StateListing>;
  /** STATE_NOT_FOUND when there is none by that name. */
  remove(name: string): Promise<void>;
}

export function stateApi(call: Caller): StateApi {
  return {
    save: (name, options) => call(StateSave, { name, session: options?.session }),
    list: () => call(StateList, {}),
    async remove(name) {
      await call(StateRemove, { name });
    },
  };
}
