// A raw connection to a daemon's socket (see raw-rpc.ts) with numbered
// requests and the greeting, for tests that speak the protocol by hand.
import net from "node:net";
import { PACKAGE_VERSION, PROTOCOL_VERSION } from "../../shared/version.js";
import { RawConnection as RawRpcConnection, type RawReply } from "./raw-rpc.js";

export type Reply = RawReply;

export class RawConnection extends RawRpcConnection {
  private nextId = 1;

  static override open(socketPath: string): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath);
      socket.once("connect", () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  /** A request with the next id; resolves to its reply. */
  call(method: string, params?: unknown): Promise<Reply> {
    return this.request(this.nextId++, method, params);
  }

  hello(clientVersion = PACKAGE_VERSION): Promise<Reply> {
    return this.call("daemon.hello", { clientVersion, protocol: PROTOCOL_VERSION, settings: {} });
  }
}
