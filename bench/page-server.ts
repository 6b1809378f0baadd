// Local pages for the benchmarks: a plain page, one with 100 subresources,
// one with a WebMCP tool, and the pages of the agent tasks (/agent/…, agent-pages.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { agentPage } from "./agent-pages.js";

export async function startPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const images = Array.from({ length: 100 }, (_, i) => `<img src="/img/${i}.svg">`).join("");
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    if (path.startsWith("/agent/")) {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        const page = agentPage(req.method ?? "GET", path, body);
        if (page) res.writeHead(page.status, page.headers).end(page.body);
        else res.writeHead(404).end();
      });
    } else if (path.startsWith("/img/")) {
      res.writeHead(200, { "content-type": "image/svg+xml", "cache-control": "no-store" }).end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
    } else if (path === "/heavy") {
      res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store" }).end(`<title>Heavy</title>${images}`);
    } else if (path === "/webmcp") {
      // A page tool for the WebMCP bridge's round trip.
      res.writeHead(200, { "content-type": "text/html" }).end(`<title>Tools</title><p id="t">tools</p><script>document.modelContext?.registerTool({ name: "add", description: "Adds", execute: ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }) })</script>`);
    } else {
      res.writeHead(200, { "content-type": "text/html" }).end(`<title>Bench</title><p id="t">text ${path}</p>`);
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}
