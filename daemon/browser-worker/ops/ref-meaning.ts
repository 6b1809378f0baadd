// A ref acts only on the element as its snapshot named it: before an action,
// the element must still have the role and accessible name the snapshot
// showed. One role query scoped to the element's parent answers that; only
// when it says no is the element described again (which costs Playwright its
// map of refs for the page, rebuilt by the next ref's lookup).
import type { Locator, Page } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import { describeRole, type AriaNode } from "./snapshot/aria-render.js";

/** Roles the snapshot shows that Playwright's role query does not match; they carry no name, so only the role is theirs to keep. */
const UNQUERIED_ROLES: ReadonlySet<string> = new Set(["generic", "iframe"]);

type Role = Parameters<Page["getByRole"]>[0];

/** The cheap answer: whether the element behind `ref` still has the snapshot's role and name (false also when it cannot tell). */
export async function meaningHolds(page: Page, ref: string, node: AriaNode): Promise<boolean> {
  if (UNQUERIED_ROLES.has(node.role) && !node.name) return true;
  const scoped = page.getByRef(ref).locator("xpath=..").getByRole(node.role as Role, { name: node.name ? node.name : /^$/, exact: true }).and(page.getByRef(ref));
  return (await scoped.count().catch(() => 0)) === 1;
}

/**
 * Whether the element behind `ref` is still what the snapshot named it; STALE_REF naming both when not.
 * `early` is meaningHolds started alongside the ref's lookup: its yes is final; a no is asked again.
 */
export async function assertSameMeaning(page: Page, ref: string, node: AriaNode, timeoutMs: number, early?: Promise<boolean>): Promise<void> {
  if ((await early) === true || (await meaningHolds(page, ref, node))) return;
  const now = await describeNow(page.getByRef(ref), timeoutMs);
  if (now !== undefined && now.role === node.role && (now.name ?? "") === (node.name ?? "")) return;
  const was = describeRole(node);
  const is = now === undefined ? "no longer shown (hidden or removed)" : `now ${describeRole(now)}`;
  throw new BwError("STALE_REF", `${ref} was ${was}, is ${is}: nothing was done; take a new snapshot and use its refs`, {
    details: { ref, was: { role: node.role, name: node.name ?? "" }, now: now === undefined ? null : { role: now.role, name: now.name ?? "" } },
  });
}

/** The element's own node as an ai snapshot shows it now (undefined when it shows none). */
async function describeNow(element: Locator, timeoutMs: number): Promise<{ role: string; name?: string } | undefined> {
  const tree = await element.ariaSnapshotJSON({ mode: "ai", depth: 0, timeout: timeoutMs }).catch(() => [] as unknown[]);
  const first = (tree as unknown[]).find((n): n is AriaNode => typeof n === "object" && n !== null);
  return first === undefined ? undefined : { role: first.role, ...(first.name ? { name: first.name } : {}) };
}
