// The server's MCP prompts and instructions: static text templates a host can
// offer, so that a workflow need not be inferred. Rendering makes no model
// call and keeps no state; the client still decides which tools to call. Pure.
import { BwError } from "../../../shared/protocol/errors.js";

export const INSTRUCTIONS = [
  "A persistent, policy-guarded Chromium. This connection has its own browser session; every tool takes an optional `session` to act in another (session_create makes one per user or role).",
  "Typical loop: navigate, snapshot (refs such as e12), then click/type/fill with a ref; in a big page, find text or a role and name to get the refs of just those lines; snapshot with diff to see what an action changed. Refs go stale after navigation, so snapshot again.",
  "Errors say their code and the next step. An answer too long for one reply ends with a cursor for the `more` tool.",
].join(" ");

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptDefinition {
  name: string;
  description: string;
  arguments: PromptArgument[];
}

interface Prompt extends PromptDefinition {
  render(args: Record<string, string>): string;
}

const PROMPTS: readonly Prompt[] = [
  {
    name: "parallel_roles",
    description: "Carry one task out as several roles at once, one isolated session each",
    arguments: [
      { name: "task", description: "what to do, e.g. check out as a buyer and confirm the order as an admin", required: true },
      { name: "roles", description: "the roles, separated by commas, e.g. buyer,admin", required: true },
    ],
    render: ({ task, roles }) => {
      const names = roles!.split(",").map((r) => r.trim()).filter((r) => r !== "");
      const lines = names.map((role) => `- ${role}: session_create with name "${role}", isolated true and labels ["role=${role}"]; pass session "${role}" to every tool you call for this role.`);
      return [
        `Carry out this task as ${names.length} roles at once: ${task}`,
        "",
        "Give each role a session of its own (its own cookies and storage):",
        ...lines,
        "",
        "In each session: navigate, snapshot (or find) to get refs, act on the refs, and snapshot with diff to see what changed.",
        "Work the roles in turn or side by side; a session keeps its pages between calls. session_list shows them with their labels.",
        "When done, say what each role saw, where they differ, and close the sessions (session_close).",
      ].join("\n");
    },
  },
  {
    name: "diagnose_page",
    description: "Load a page and collect console, page-error and network evidence about it",
    arguments: [{ name: "url", description: "the page to load", required: true }],
    render: ({ url }) => [
      `Diagnose the page at ${url}:`,
      "",
      `1. navigate to ${url} and note its status and title.`,
      "2. observe errors, then observe console and observe network (failed requests, 4xx and 5xx answers). Without the observe tool, a run snippet can read the same through page.on handlers on a reload.",
      "3. snapshot with interactive true to see what the page offers; screenshot if the layout matters.",
      "4. Report what is broken, the evidence for each finding (the error text, the failing URL and its status), and what most likely causes it. Quote no cookies, tokens or passwords.",
    ].join("\n"),
  },
];

export function promptList(): PromptDefinition[] {
  return PROMPTS.map(({ render: _render, ...definition }) => definition);
}

/** The prompt's text for its arguments; INVALID_ARGUMENT for an unknown prompt or a missing argument. */
export function renderPrompt(name: string, args: Record<string, unknown> = {}): { description: string; text: string } {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw new BwError("INVALID_ARGUMENT", `no prompt ${JSON.stringify(name.slice(0, 40))}; the prompts are ${PROMPTS.map((p) => p.name).join(", ")}`);
  const given: Record<string, string> = {};
  for (const arg of prompt.arguments) {
    const value = args[arg.name];
    if (typeof value === "string" && value.trim() !== "") given[arg.name] = value.trim().slice(0, 2_000);
    else if (arg.required) throw new BwError("INVALID_ARGUMENT", `prompt ${name}: argument ${arg.name} is required (${arg.description})`);
  }
  return { description: prompt.description, text: prompt.render(given) };
}
