// The tasks as an agent would script them with a server's default tools,
// reading refs from what the server answered (never knowing them ahead), and
// checking that the task was done: a task that did not get there fails.
import { LOGIN, REFUNDED, WELCOME } from "../agent-pages.js";
import type { McpAgent } from "./mcp-agents.js";
import { enclosingRef, refInside, refOf } from "./mcp-refs.js";

/** The row the row task is about (the table numbers its orders from #10000), and what an agent would search for. */
export const ROW = "#10217";
export const ROW_SEARCH = "10217";
const BUTTON = 'button "Refund"';

/** Sign in on the login form and see the welcome page. */
export async function loginTask(agent: McpAgent, base: string): Promise<void> {
  await agent.navigate(`${base}/agent/login`);
  const form = await agent.snapshot();
  const user = refOf(form, 'textbox "Username"');
  const password = refOf(form, 'textbox "Password"');
  const submit = refOf(form, 'button "Sign in"');
  await agent.fill([{ ref: user, value: LOGIN.user, name: "Username" }, { ref: password, value: LOGIN.password, name: "Password" }]);
  const after = await agent.click(submit, "Sign in button");
  if (after.includes(WELCOME)) return;
  if (!(await agent.read()).includes(WELCOME)) throw new Error(`${agent.name}: signed in, but no "${WELCOME}" came back`);
}

/**
 * Click the button of one row of the 300-row table and read what changed in
 * that row: find the order's number (a server without find pages through its
 * snapshot until it shows), take the row's button from what came back or else
 * from the row's own snapshot, click, and look at the row again.
 */
export async function rowTask(agent: McpAgent, base: string): Promise<void> {
  await agent.navigate(`${base}/agent/table`);
  const found = await agent.find(ROW_SEARCH);
  const row = enclosingRef(found, ROW, "row");
  const button = refInside(found, ROW, "row", BUTTON) ?? refOf(await agent.snapshot(row), BUTTON);
  await agent.click(button, `Refund button of order ${ROW}`);
  const changed = agent.offers("find") ? await agent.find(ROW_SEARCH) : await agent.snapshot(row);
  if (!changed.includes(REFUNDED)) throw new Error(`${agent.name}: clicked, but row ${ROW} does not say "${REFUNDED}": ${changed.slice(0, 200)}`);
}
