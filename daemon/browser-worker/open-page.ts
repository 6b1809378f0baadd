// A snippet's openPage(url?): a new page of its session, made active, and
// taken to `url` when one is given (its scheme checked first), inside the
// network guard so that a refusal keeps its BLOCKED_URL code.
import { assertNavigable } from "./facades/facade-dispatch.js";
import { gotoSettled } from "./failed-navigation.js";
import type { PageRegistry } from "./page-registry.js";

export async function openPage(pages: PageRegistry, rawUrl: unknown, guard: <T>(action: () => Promise<T>) => Promise<T>, remainingMs: () => number): Promise<string> {
  const url = typeof rawUrl === "string" && rawUrl !== "" ? rawUrl : undefined;
  if (url !== undefined) await guard(async () => assertNavigable(url));
  const id = await pages.open();
  if (url !== undefined) await guard(() => gotoSettled(pages.get(id), url, remainingMs()));
  return pages.use(id);
}
