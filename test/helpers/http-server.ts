// A page server on 127.0.0.1 for tests: routes map a path to HTML.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface TestServer {
  url: string;
  port: number;
  requests: string[];
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, string | ((req: http.IncomingMessage, res: http.ServerResponse) => void)>): Promise<TestServer> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const route = routes[new URL(req.url ?? "/", "http://x").pathname];
    if (typeof route === "function") return route(req, res);
    if (route === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(route);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
