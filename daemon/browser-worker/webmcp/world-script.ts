// The bridge's code inside the page: each function is sent as source text and
// runs in an isolated world of the page's main frame, which shares the DOM and
// `document.modelContext` with the page but none of its JavaScript globals,
// so page code can neither see nor trap it. Each must not refer to anything
// outside its own body. What they return is bounded before it leaves.
/* eslint-disable */

interface Bounds {
  maxTools: number;
  maxName: number;
  maxDescription: number;
  maxSchema: number;
}

/** The page's tools as plain, bounded data; `null` when the page has no WebMCP. */
export async function listToolsInWorld(bounds: Bounds): Promise<{ total: number; tools: Record<string, unknown>[] } | null> {
  const g = globalThis as any;
  const mc = g.document?.modelContext ?? g.navigator?.modelContext;
  if (!mc || typeof mc.getTools !== "function") return null;
  const all: any[] = (await mc.getTools()) ?? [];
  const own = all.filter((t) => !t || !("window" in t) || t.window === g.window);
  const tools: Record<string, unknown>[] = [];
  for (const t of own) {
    if (tools.length >= bounds.maxTools) break;
    const name = typeof t?.name === "string" ? t.name : "";
    if (name.length === 0 || name.length > bounds.maxName) continue;
    const description = typeof t.description === "string" ? t.description.slice(0, bounds.maxDescription) : "";
    let schema: string | undefined;
    try {
      schema = typeof t.inputSchema === "string" ? t.inputSchema : t.inputSchema === undefined ? undefined : JSON.stringify(t.inputSchema);
    } catch {
      schema = undefined;
    }
    const a = t.annotations ?? {};
    // A declarative tool (a <form toolname>) with `toolautosubmit` submits the form itself.
    let autosubmit = false;
    for (const form of Array.from(g.document.querySelectorAll("form[toolname]")) as any[]) {
      if (form.getAttribute("toolname") === name && form.hasAttribute("toolautosubmit")) autosubmit = true;
    }
    tools.push({
      name,
      description,
      ...(schema !== undefined && schema.length <= bounds.maxSchema ? { schema } : {}),
      ...(schema !== undefined && schema.length > bounds.maxSchema ? { schemaOmitted: true } : {}),
      readOnly: a.readOnlyHint === true,
      untrustedContent: a.untrustedContentHint === true,
      submits: a.consequentialHint === true || autosubmit,
    });
  }
  return { total: own.length, tools };
}

/**
 * Runs one tool with an AbortController kept in this world under `key`, so a
 * later call can cancel it; answers its result as JSON text, cut to `maxChars`.
 */
export async function callToolInWorld(args: { name: string; input: unknown; key: string; maxChars: number }): Promise<Record<string, unknown>> {
  const g = globalThis as any;
  const mc = g.document?.modelContext ?? g.navigator?.modelContext;
  if (!mc || typeof mc.getTools !== "function" || typeof mc.executeTool !== "function") return { missing: "webmcp" };
  const tool = ((await mc.getTools()) ?? []).find((t: any) => t && t.name === args.name && (!("window" in t) || t.window === g.window));
  if (!tool) return { missing: "tool" };
  const calls: Map<string, AbortController> = ((globalThis as any).__bwWebmcpCalls ??= new Map());
  const controller = new AbortController();
  calls.set(args.key, controller);
  try {
    const raw = await mc.executeTool(tool, args.input ?? {}, { signal: controller.signal });
    let text: string;
    if (typeof raw === "string") text = raw;
    else {
      try {
        text = JSON.stringify(raw) ?? "null";
      } catch {
        text = "null";
      }
    }
    return { text: text.slice(0, args.maxChars), totalChars: text.length };
  } catch (error: any) {
    return { error: `${String(error?.name ?? "Error")}: ${String(error?.message ?? error)}`.slice(0, 1_000) };
  } finally {
    calls.delete(args.key);
  }
}

/** Asks the page to cancel the call kept under `key` (the tool's `signal` aborts, the page gets `toolcancel`). */
export function cancelInWorld(key: string): boolean {
  const calls: Map<string, AbortController> | undefined = (globalThis as any).__bwWebmcpCalls;
  const controller = calls?.get(key);
  if (!controller) return false;
  controller.abort();
  return true;
}
