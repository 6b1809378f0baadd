// The proxy sees only a host and a port; the policy decides on URLs. This is the
// one way the proxy phrases its question, built from the canonical host so the
// URL can never name a different host than the one that will be dialled.
import { BwError } from "../../protocol/errors.js";
import { hostForUrl, normalizeHost, type NormalizedHost } from "./host-normalize.js";

export interface ProxyTarget {
  /** What to ask the policy: `https://` for port 443, `http://` otherwise (the proxy cannot know the scheme). */
  readonly url: string;
  /** The canonical host: resolve and dial this, not the raw input. */
  readonly host: NormalizedHost;
  readonly port: number;
}

/** Throws INVALID_ARGUMENT for a host that cannot be read or a port outside 1-65535. */
export function proxyTarget(rawHost: string, port: number): ProxyTarget {
  const parsed = normalizeHost(rawHost);
  if (!parsed.ok) throw new BwError("INVALID_ARGUMENT", `proxy target host ${JSON.stringify(rawHost)}: ${parsed.reason}`);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new BwError("INVALID_ARGUMENT", `proxy target port ${String(port)} is outside 1-65535`);
  }
  const scheme = port === 443 ? "https" : "http";
  // Through the URL parser, so the question reads exactly like the route layer's (default ports dropped).
  const url = new URL(`${scheme}://${hostForUrl(parsed.value)}:${port}/`).href;
  return Object.freeze({ url, host: parsed.value, port });
}
