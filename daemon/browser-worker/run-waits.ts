// What a run was waiting on when its budget ran out. Playwright's own waits
// end a little before the run's deadline, so that their message (which names
// the locator, URL or load state, with its call log) is the run's failure;
// should the run's timer still win, it names the calls in flight. Pure.
import { safeUrl } from "./ops/observe/safe-url.js";

/** Time kept between the end of Playwright's waits and the run's deadline: a tenth of the budget, 100 ms to 1 s. */
export function reportMarginMs(budgetMs: number): number {
  return Math.min(1_000, Math.max(100, Math.floor(budgetMs / 10)));
}

const MAX_LABEL_CHARS = 200;
// Only these methods' first argument is shown: a URL, a selector, a load state. Never what is typed or filled.
const SHOWN_FIRST_ARG = new Set(["goto", "waitForURL", "waitForSelector", "waitForLoadState", "waitForEvent", "waitForNavigation", "waitForResponse", "waitForRequest"]);
const URL_ARG = new Set(["goto", "waitForURL", "waitForResponse", "waitForRequest"]);

function clip(text: string): string {
  return text.length > MAX_LABEL_CHARS ? `${text.slice(0, MAX_LABEL_CHARS)}…` : text;
}

function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "…";
  }
}

/** A locator chain as Playwright writes one: getByRole("button", {"name":"Go"}).first(). */
function chainText(steps: unknown): string {
  if (!Array.isArray(steps)) return "locator";
  return steps.map((step) => {
    const { m, a } = (step ?? {}) as { m?: unknown; a?: unknown };
    const args = Array.isArray(a) ? a.map((x) => (typeof x === "object" && x !== null && "steps" in x ? "locator" : shown(x))).join(", ") : "";
    return `${String(m)}(${args})`;
  }).join(".");
}

/** A snippet's browser call as words: page.goto("http://…"), getByRole("button", {"name":"Go"}).click(). */
export function describeCall(m: Record<string, unknown>): string {
  const method = String(m.method ?? m.ask ?? "call");
  const receiver = m.target === "locator" ? chainText(m.steps) : String(m.target ?? "page");
  const args = Array.isArray(m.args) ? m.args : [];
  let first = "";
  if (SHOWN_FIRST_ARG.has(method) && args.length > 0) first = typeof args[0] === "string" && URL_ARG.has(method) ? shown(safeUrl(args[0])) : shown(args[0]);
  if (m.ask === "openPage" && typeof m.url === "string") return clip(`newPage(${shown(safeUrl(m.url))})`);
  return clip(`${receiver}.${method}(${first})`);
}

/** The message of a run whose timer ran out, naming what it was still waiting on. */
export function budgetRanOut(budgetMs: number, what: "snippet" | "operation", waiting: Iterable<string>): string {
  const labels = [...new Set(waiting)].filter((l) => l !== "");
  const base = `the ${what} did not finish within its budget of ${budgetMs} ms`;
  if (labels.length === 0) return `${base}; it was waiting on none of its browser calls (its own code, or a timer)`;
  return `${base}; it was waiting for ${labels.slice(0, 3).join(", ")}${labels.length > 3 ? ` and ${labels.length - 3} more` : ""}`;
}
