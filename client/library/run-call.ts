// One call that starts a run in a session (a snippet or a typed operation):
// aborting the signal cancels the run in the daemon, and a connection that
// drops while it runs is reattached to the run (its envelope is kept 60 s).
import { BwError } from "../../shared/protocol/errors.js";
import type { Envelope } from "../../shared/protocol/envelope.js";
import { RunCancel } from "../../shared/protocol/methods/index.js";
import type { RpcCaller } from "../../shared/protocol/rpc-client.js";
import { newRunId } from "./run-id.js";

/** `E`: the envelope as the caller knows it (a typed operation's result), the one place the library says so. */
export async function callRun<E extends Envelope = Envelope>(
  peer: RpcCaller,
  signal: AbortSignal | undefined,
  attach: (runId: string) => Promise<Envelope>,
  send: (runId: string) => Promise<Envelope>,
): Promise<E> {
  const runId = newRunId();
  const onAbort = () => void peer.call(RunCancel, { runId }).catch(() => {});
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return (await send(runId)) as E;
  } catch (error) {
    // The connection dropped but the run goes on in the daemon: reattach for its envelope.
    if (!(error instanceof BwError) || error.code !== "DAEMON_UNAVAILABLE") throw error;
    return (attach(runId) as Promise<E>).catch((attachError: unknown) => {
      // A new daemon never heard of it: the one that ran it died (kill -9, crash) mid-run.
      if (attachError instanceof BwError && attachError.code === "RUN_NOT_FOUND") {
        throw new BwError("SESSION_RESET", "the daemon stopped while this run was in flight: its outcome is unknown (what it did may have happened) and the session's pages were lost", { retryable: false });
      }
      throw attachError;
    });
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
