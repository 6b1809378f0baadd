// A connection to a daemon's socket, speaking the shared RPC peer.
import net from "node:net";
import { BwError } from "../../shared/protocol/errors.js";
import { RpcClient, type RpcCaller } from "../../shared/protocol/rpc-client.js";

export function connectSocket(socketPath: string, timeoutMs = 5_000): Promise<RpcCaller> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new BwError("DAEMON_UNAVAILABLE", `timed out connecting to ${socketPath}`));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      socket.on("error", () => {});
      resolve(new RpcClient(socket));
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(Object.assign(new BwError("DAEMON_UNAVAILABLE", `cannot connect to ${socketPath}: ${error.code ?? error.message}`), { errno: error.code }));
    });
  });
}
