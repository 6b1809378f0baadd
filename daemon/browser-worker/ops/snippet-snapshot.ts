// The snippet's `snapshot(opts?)`: as before, Playwright's ARIA text of the
// page (daemon/browser-worker/facades/snapshot-function.ts); given any option of the `snapshot` operation
// that it lacks (interactive, diff, cursor, target), the operation's own
// answer instead, whose refs the operations then accept.
import { checkOperation, DEFAULT_ELEMENT_WAIT_MS } from "../../../shared/protocol/operations/index.js";
import type { PageRegistry } from "../page-registry.js";
import type { ScopeFunction } from "../facades/scope-functions.js";
import type { SessionPageState } from "./page-state.js";
import { runHandler } from "./registry.js";

const OPERATION_ONLY = ["interactive", "diff", "cursor", "target"];

export function snippetSnapshot(plain: ScopeFunction, session: () => { pages: PageRegistry; state: SessionPageState }): ScopeFunction {
  return {
    name: plain.name,
    kind: "async",
    call(run, args) {
      const opts = args[0];
      const asOperation = opts !== null && typeof opts === "object" && OPERATION_ONLY.some((k) => Object.hasOwn(opts, k));
      if (!asOperation) return plain.call(run, args);
      const { args: checked } = checkOperation("snapshot", opts);
      return runHandler("snapshot", { ...session(), run, guard: (action) => action(), scope: () => undefined, fileArgs: (_t, _m, a) => a, downloadHistory: () => [], elementWaitMs: DEFAULT_ELEMENT_WAIT_MS, readTitle: (_pageId, read) => read() }, checked);
    },
  };
}
