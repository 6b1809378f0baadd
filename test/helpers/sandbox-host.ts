// A stand-in for the worker's side of a snippet context: the real
// SnippetContext (primordials, bootstrap, facades, events, compiled in a real
// vm context) with a host that answers page calls with plain data, runs real
// timers and emits page events, so the sandbox's own code can be attacked in
// milliseconds, without a browser.
import { randomUUID } from "node:crypto";
import { SnippetContext } from "../../daemon/browser-worker/realm/context.js";

export interface StandInOutcome {
  ok: boolean;
  value?: unknown;
  error?: { name: string; message: string };
}

export interface StandInRun {
  /** The run's `done` message, or "timeout" when none came within the wait. */
  outcome: StandInOutcome | "timeout";
  console: string[];
}

export class StandInSession {
  readonly context: SnippetContext;
  private token = "";
  private done: ((outcome: StandInOutcome) => void) | undefined;
  private readonly listening = new Set<string>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private nextTimer = 1;
  private console: string[] = [];

  constructor(name = "standin") {
    this.context = new SnippetContext(name, {
      sync: (m) => this.sync(m),
      async: (m) => this.async(m),
    }, { scope: { async: ["credentials.fill"], sync: ["artifactPath"] } });
  }

  private live(m: Record<string, unknown>): void {
    if (m.token !== this.token) throw Object.assign(new Error("this run is over"), { code: "SNIPPET_TIMEOUT" });
  }

  private sync(m: Record<string, unknown>): unknown {
    if (m.ask === "done") {
      if (m.token === this.token) this.done?.({ ok: m.ok === true, value: m.value, error: m.error as StandInOutcome["error"] });
      return null;
    }
    if (m.ask === "pure") return null;
    this.live(m);
    switch (m.ask) {
      case "console":
        this.console.push(String(m.text));
        return null;
      case "activePage":
      case "usePage":
        return "p1";
      case "pages":
        return [{ pageId: "p1", url: "about:blank", active: true }];
      case "frames":
        return m.which === "all" || m.which === "children" ? ["f1"] : "f1";
      case "listen":
        if (m.on === true) this.listening.add(String(m.event));
        else this.listening.delete(String(m.event));
        return null;
      case "setTimeout":
      case "setInterval": {
        const id = this.nextTimer++;
        const ms = Math.max(Number(m.ms) || 0, m.ask === "setInterval" ? 10 : 0);
        const fire = () => this.context.fireTimer(id);
        this.timers.set(id, m.ask === "setInterval" ? setInterval(fire, ms) : setTimeout(fire, ms));
        return id;
      }
      case "clearTimeout":
        clearTimeout(this.timers.get(Number(m.id)));
        this.timers.delete(Number(m.id));
        return null;
      case "callSync":
        return m.method === "url" ? "about:blank" : null;
      case "scope":
        return "/artifacts/x";
      default:
        throw new Error(`unknown request ${String(m.ask)}`);
    }
  }

  private async async(m: Record<string, unknown>): Promise<unknown> {
    this.live(m);
    if (m.ask === "call" && m.method === "evaluate") {
      // The page logs while the run waits for its evaluate: the run's handlers get the event.
      if (this.listening.has("console")) this.context.emit(this.token, { event: "console", pageId: "p1", type: "log", text: "from the page", location: { url: "about:blank" } });
      if (this.listening.has("dialog")) this.context.emit(this.token, { event: "dialog", pageId: "p1", type: "alert", dialogId: "d1", message: "hi", defaultValue: "" });
      if (this.listening.has("pageerror")) this.context.emit(this.token, { event: "pageerror", pageId: "p1", name: "Error", message: "boom", stack: "Error: boom" });
      await new Promise((r) => setTimeout(r, 2));
      return { echo: m.args };
    }
    if (m.ask === "openPage") return "p2";
    if (m.ask === "call" && m.method === "goto") throw Object.assign(new Error("net::ERR_FAILED"), { code: "NAVIGATION_FAILED" });
    return null;
  }

  /** Compiles and runs `code`; waits at most `waitMs` for its outcome. The run is then ended like the worker ends it. */
  async run(code: string, waitMs = 10_000): Promise<StandInRun> {
    this.token = randomUUID();
    this.console = [];
    const outcome = new Promise<StandInOutcome>((resolve) => (this.done = resolve));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), waitMs)));
    try {
      this.context.run(this.context.compile(code, "snippet-standin.js"), this.token);
      return { outcome: await Promise.race([outcome, timeout]), console: this.console };
    } finally {
      clearTimeout(timer);
      this.end();
    }
  }

  end(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.listening.clear();
    this.context.endRun(this.token);
    this.token = "";
  }
}
