// The widget fixture app (test/e2e/fixtures/widgets): its component-library
// sources bundled once with esbuild, in memory, and served with its plain pages
// by two 127.0.0.1 servers (the second is another origin, for the iframe).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { startServer, type TestServer } from "./http-server.js";

const FIXTURES = fileURLToPath(new URL("../e2e/fixtures/widgets/", import.meta.url));
const ENTRIES = ["mui.tsx", "radix.tsx", "cascader.tsx", "virtual.tsx", "sortable.ts", "lit.ts"];
/** React widgets, one per page: `/mui/select` renders the MUI select alone. */
export const REACT_WIDGETS = {
  mui: ["select", "date-picker", "modal", "table", "tabs", "switch", "combobox"],
  radix: ["dialog", "listbox"],
  cascader: ["cascader"],
  virtual: ["list"],
} as const;

export interface WidgetApp {
  /** The app's origin, http://127.0.0.1:PORT. */
  url: string;
  /** Another origin serving the same files (the iframe's). */
  otherUrl: string;
  close(): Promise<void>;
}

async function bundles(): Promise<Record<string, string>> {
  const built = await build({
    entryPoints: ENTRIES.map((entry) => path.join(FIXTURES, entry)),
    outdir: "/widgets",
    bundle: true,
    write: false,
    format: "esm",
    minify: true,
    jsx: "automatic",
    target: "chrome120",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  return Object.fromEntries(built.outputFiles.map((file) => [`/${path.basename(file.path)}`, file.text]));
}

function reactPage(bundle: string, widget: string): string {
  return `<!doctype html><title>${bundle} ${widget}</title><div id="root" data-widget="${widget}"></div><script type="module" src="/${bundle}.js"></script>`;
}

export async function startWidgetApp(): Promise<WidgetApp> {
  const scripts = await bundles();
  const routes: Parameters<typeof startServer>[0] = {};
  for (const [file, text] of Object.entries(scripts)) {
    routes[file] = (_req, res) => { res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(text); };
  }
  for (const [bundle, widgets] of Object.entries(REACT_WIDGETS)) {
    for (const widget of widgets) routes[`/${bundle}/${widget}`] = reactPage(bundle, widget);
  }
  const other: TestServer = await startServer(routes);
  for (const name of readdirSync(FIXTURES).filter((n) => n.endsWith(".html"))) {
    routes[`/${name}`] = readFileSync(path.join(FIXTURES, name), "utf8").replaceAll("FRAME_ORIGIN", other.url);
  }
  const main = await startServer(routes);
  return { url: main.url, otherUrl: other.url, close: async () => { await main.close(); await other.close(); } };
}
