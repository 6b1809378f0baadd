// An approved connection the daemon could not make, in the words of the
// network rather than of our proxy: Chromium reports every one of them as
// net::ERR_SOCKS_CONNECTION_FAILED, which names a proxy the user never set up.
import type { DialFailure } from "../../../shared/protocol/methods/index.js";

const WORDS: Readonly<Record<DialFailure, (hostPort: string) => string>> = {
  refused: (hostPort) => `connection refused to ${hostPort} (nothing is listening there)`,
  timeout: (hostPort) => `connecting to ${hostPort} timed out`,
  "host-unreachable": (hostPort) => `${hostPort} is unreachable (no route to the host)`,
  "network-unreachable": (hostPort) => `${hostPort} is unreachable (no route to its network)`,
  error: (hostPort) => `could not connect to ${hostPort}`,
};

/** What a failed dial to `hostPort` (host:port) means for the person who asked for the page. */
export function unreachableReason(failure: DialFailure, hostPort: string): string {
  return WORDS[failure](hostPort);
}
