// How Playwright reaches a remote endpoint from a worker that has no network:
// a listener on the worker's own loopback that Playwright connects to, each of
// whose connections is spliced to a socket the daemon dialled to the endpoint
// (remote.dial). For wss:// and https endpoints TLS runs here, over that
// socket, with the endpoint's own name, so the certificate is checked as if
// Playwright had dialled it. Nothing but the endpoint is ever reached, and
// (as the guard proxy's) only this process's user's sockets are served.
import { createServer, type Server, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { Duplex } from "node:stream";
import { preparePeerCheck } from "../guard/proxy/peer-check.js";

/** Opens one connection to the endpoint: the daemon's socket, handed over. */
export type EndpointDial = () => Promise<Socket>;

export interface EndpointRelay {
  /** The loopback port Playwright connects to. */
  readonly port: number;
  close(): Promise<void>;
}

/** How long a TLS handshake with the endpoint may take. */
const TLS_TIMEOUT_MS = 15_000;

function withTls(socket: Socket, servername: string): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    const secure = tlsConnect({ socket, servername, ALPNProtocols: ["http/1.1"] });
    const timer = setTimeout(() => secure.destroy(new Error(`TLS handshake with ${servername} timed out`)), TLS_TIMEOUT_MS);
    secure.once("secureConnect", () => {
      clearTimeout(timer);
      resolve(secure);
    });
    secure.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Starts the relay. `tlsName`: the endpoint's host name when it speaks TLS. */
export async function startEndpointRelay(dial: EndpointDial, tlsName: string | undefined, log: (line: string) => void): Promise<EndpointRelay> {
  const live = new Set<Duplex>();
  const track = (stream: Duplex) => {
    live.add(stream);
    stream.on("close", () => live.delete(stream));
  };
  const peers = await preparePeerCheck();
  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    client.on("error", () => {});
    void (async () => {
      if ("check" in peers) {
        const verdict = await peers.check(client).catch(() => ({ allowed: false as const, reason: "the peer check failed" }));
        if (!verdict.allowed) {
          client.destroy();
          return;
        }
      }
      let upstream: Duplex;
      try {
        const socket = await dial();
        upstream = tlsName === undefined ? socket : await withTls(socket, tlsName);
      } catch (error) {
        log(`remote endpoint: no connection: ${(error as Error).message}`);
        client.destroy();
        return;
      }
      track(upstream);
      upstream.on("error", () => {});
      if (client.destroyed) {
        upstream.destroy();
        return;
      }
      const teardown = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("close", teardown);
      upstream.on("close", teardown);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    close: async () => {
      for (const stream of live) stream.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
