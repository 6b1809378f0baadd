// Where `serve` listens: loopback unless --allow-remote, and which Host
// headers it answers on loopback (a page whose name rebinds to 127.0.0.1
// still sends its own name, so it is refused before anything else).
import { isIP } from "node:net";
import { BwError } from "../../shared/errors.js";

export interface ListenAddress {
  host: string;
  port: number;
}

export const DEFAULT_LISTEN = "127.0.0.1:8790";

/** `HOST:PORT` or `[v6]:PORT`; port 0 picks a free one. */
export function parseListen(text: string): ListenAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || !(port >= 0 && port <= 65535)) {
    throw new BwError("INVALID_ARGUMENT", `--listen: expected HOST:PORT such as ${DEFAULT_LISTEN}, got ${JSON.stringify(text.slice(0, 80))}`);
  }
  return { host: (match[1] ?? match[2]!).toLowerCase(), port };
}

export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return isIP(host) === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(host);
}

export function checkListen(address: ListenAddress, allowRemote: boolean): void {
  if (!isLoopback(address.host) && !allowRemote) {
    throw new BwError("INVALID_ARGUMENT", `--listen: ${address.host} is not a loopback address; serve listens on 127.0.0.1, ::1 or localhost unless --allow-remote is given (the token is required either way)`);
  }
}

/**
 * The Host headers a loopback listener answers (its port with every loopback
 * spelling); undefined for a remote listener, whose clients name it as they will.
 */
export function loopbackHosts(address: ListenAddress, boundPort: number): Set<string> | undefined {
  if (!isLoopback(address.host)) return undefined;
  const names = ["localhost", "127.0.0.1", "[::1]", address.host.includes(":") ? `[${address.host}]` : address.host];
  return new Set(names.map((n) => `${n}:${boundPort}`));
}
