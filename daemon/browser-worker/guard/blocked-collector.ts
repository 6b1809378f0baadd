// One run's record of what the guard refused, for the envelope's `blocked`
// field: bounded, one entry per (layer, URL) with a count. It also turns a
// navigation that failed because the guard refused it into BLOCKED_URL with the
// policy's reason (or, when the proxy could not resolve the host, into
// DNS_UNAVAILABLE; when the approved address did not answer, into
// NAVIGATION_FAILED in the network's words), and remembers those errors so an
// uncaught one keeps its code.
import { BwError } from "../../../shared/protocol/errors.js";
import type { BlockedRequest } from "../../../shared/protocol/envelope.js";
import { isProxyRefusal, isRouteRefusal } from "../playwright-errors.js";
import type { GuardRefusal } from "./route-layer.js";

type GuardCode = "BLOCKED_URL" | "DNS_UNAVAILABLE" | "NAVIGATION_FAILED";

export const MAX_BLOCKED_ENTRIES = 50;
const MAX_REMEMBERED_ERRORS = 20;

export class BlockedCollector {
  readonly #entries = new Map<string, BlockedRequest>();
  /** Every refusal in arrival order (bounded), so a failure can look at what happened since it started. */
  #log: GuardRefusal[] = [];
  #seen = 0;
  readonly #guardMessages = new Map<string, GuardCode>();

  add(entry: GuardRefusal): void {
    this.#seen += 1;
    // A host that did not resolve, or did not answer, is no refusal: it explains a failure, it is not listed.
    if (entry.unresolved || entry.unreachable) {
      this.#remember(entry);
      return;
    }
    const key = `${entry.layer} ${entry.url}`;
    const existing = this.#entries.get(key);
    if (existing !== undefined) {
      existing.count += 1;
    } else if (this.#entries.size < MAX_BLOCKED_ENTRIES) {
      this.#entries.set(key, { ...entry, count: 1 });
    }
    this.#remember(entry);
  }

  #remember(entry: GuardRefusal): void {
    this.#log.push({ ...entry });
    if (this.#log.length > MAX_BLOCKED_ENTRIES * 2) this.#log = this.#log.slice(-MAX_BLOCKED_ENTRIES);
  }

  /** A position to compare a later failure against. */
  mark(): number {
    return this.#seen;
  }

  /** The envelope's share: nothing when nothing was refused. */
  outcome(): { blocked?: BlockedRequest[] } {
    return this.#entries.size === 0 ? {} : { blocked: [...this.#entries.values()].map((e) => ({ ...e })) };
  }

  /**
   * The BLOCKED_URL error a browser call that failed with `error` should have thrown,
   * if the guard refused a navigation (route layer) or a connection (proxy layer,
   * e.g. a redirect hop) since `mark`; DNS_UNAVAILABLE when nothing was refused but
   * the proxy could not resolve a host; undefined when the failure was something else.
   */
  explain(error: unknown, mark: number): BwError | undefined {
    if (error instanceof BwError) return undefined;
    const message = error instanceof Error ? error.message : String(error);
    const fresh = this.#log.slice(Math.max(0, this.#log.length - (this.#seen - mark)));
    let culprit: GuardRefusal | undefined;
    if (isRouteRefusal(message)) culprit = fresh.find((e) => e.layer === "route" && (e.isNavigation === true || e.resourceType === "document"));
    else if (isProxyRefusal(message)) {
      culprit = fresh.find((e) => e.layer === "proxy" && !e.unresolved && !e.unreachable);
      const unresolved = culprit === undefined ? fresh.find((e) => e.unresolved) : undefined;
      if (unresolved !== undefined) {
        return new BwError("DNS_UNAVAILABLE", `${unresolved.reason} (${unresolved.url})`, { details: { url: unresolved.url, reason: unresolved.reason } });
      }
      const unreachable = culprit === undefined ? fresh.find((e) => e.unreachable) : undefined;
      if (unreachable !== undefined) {
        return new BwError("NAVIGATION_FAILED", unreachable.reason, { details: { url: unreachable.url, reason: unreachable.reason } });
      }
    }
    if (culprit === undefined) return undefined;
    return new BwError("BLOCKED_URL", `the network policy blocked ${culprit.url}: ${culprit.reason}`, {
      details: { url: culprit.url, layer: culprit.layer, reason: culprit.reason },
    });
  }

  /** Runs a browser call; a failure the guard explains is rethrown as BLOCKED_URL (DNS_UNAVAILABLE, NAVIGATION_FAILED) and remembered. */
  async guardCall<T>(call: () => Promise<T>): Promise<T> {
    const mark = this.mark();
    try {
      return await call();
    } catch (error) {
      const explained = this.explain(error, mark);
      if (explained !== undefined && this.#guardMessages.size < MAX_REMEMBERED_ERRORS) {
        this.#guardMessages.set(explained.message, explained.code as GuardCode);
      }
      throw explained ?? error;
    }
  }

  /** The code for a snippet that failed with this message, when it is a guard failure this run threw. */
  codeFor(message: string): GuardCode | undefined {
    return this.#guardMessages.get(message);
  }
}
