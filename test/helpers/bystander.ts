// The bystander of the isolation tests: session "calm" on the page `/calm`
// of the test's server (titled "Calm"), holding `state.mark = "kept"`, which
// must outlive whatever another session does.
import { expect } from "vitest";

type Exec = (session: string, code: string) => Promise<{ ok: boolean; result?: unknown }>;

export async function calmSetUp(exec: Exec, serverUrl: string): Promise<void> {
  const r = await exec("calm", `await page.goto(${JSON.stringify(`${serverUrl}/calm`)}); state.mark = "kept"; return page.title()`);
  expect(r).toMatchObject({ ok: true, result: "Calm" });
}
