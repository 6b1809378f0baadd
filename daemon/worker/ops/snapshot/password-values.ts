// The values in a page's password fields, read around a capture so that no
// snapshot shows one (maskPasswords masks any textbox showing such a value,
// and every textbox's value when a frame's fields could not be read). The
// main frame's values ride on the read that tells its document, so a capture
// pays no round trip for them; the read after the capture is made only when
// the tree shows a value that could be one.
import type { Page } from "playwright-core";
import type { PageDocument } from "../page-state.js";
import type { AriaTree } from "./aria-render.js";

interface Queryable {
  querySelectorAll(selectors: string): ArrayLike<{ localName: string; type?: unknown; value?: unknown; shadowRoot?: Queryable | null }>;
}

/**
 * Runs in the page (serialized: nothing from outside itself): the non-empty values of the password fields
 * of `doc` (the frame's own document when none is given), open shadow roots included, as Playwright's
 * snapshot reaches into them; null when the page's DOM would not tell (its scripts broke the methods
 * read with). Never throws, so that a page cannot make its document look gone.
 */
export function passwordsInDocument(doc?: unknown): string[] | null {
  const values: string[] = [];
  const visit = (root: Queryable): void => {
    const all = root.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const el = all[i]!;
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.localName === "input" && el.type === "password" && typeof el.value === "string" && el.value !== "") values.push(el.value);
    }
  };
  try {
    visit((doc ?? (globalThis as { document?: unknown }).document) as Queryable);
    return values;
  } catch {
    return null;
  }
}

/** Values read so far, or "all" once a frame's could not be read (every textbox value is then masked). */
export type PasswordValues = Set<string> | "all";

function merged(into: PasswordValues, found: readonly (string[] | null)[]): PasswordValues {
  if (into === "all" || found.includes(null)) return "all";
  for (const values of found) for (const v of values!) into.add(v);
  return into;
}

/** The values in the page's frames other than the main one, each read on its own (a frame gone meanwhile has none). */
function childFrames(page: Page): Promise<(string[] | null)[]> {
  const main = page.mainFrame();
  return Promise.all(page.frames().filter((f) => f !== main).map((f) => f.evaluate(passwordsInDocument).catch(() => [] as string[])));
}

/** Before a capture: the page's document number, and the values in its password fields (every frame). */
export async function documentAndPasswords(page: Page, document: PageDocument): Promise<{ document: number; values: PasswordValues }> {
  const [main, others] = await Promise.all([document.read(passwordsInDocument), childFrames(page)]);
  return { document: main.document, values: merged(new Set(), [main.value, ...others]) };
}

/** Whether a textbox in the tree shows a value (only such a value can be a password). */
export function showsFieldValue(tree: AriaTree): boolean {
  return tree.some((n) => typeof n !== "string" && (((n.role === "textbox" || n.role === "searchbox") && !!n.text) || showsFieldValue(n.children ?? [])));
}

/** After a capture of document `generation`: `values` with those now in the password fields, when the tree may show one. */
export async function passwordsAfter(page: Page, document: PageDocument, generation: number, tree: AriaTree, values: PasswordValues): Promise<PasswordValues> {
  if (values === "all" || !showsFieldValue(tree)) return values;
  const [main, others] = await Promise.all([document.within(generation, passwordsInDocument), childFrames(page)]);
  // The page shows another document than the one captured: the values read before stand for it alone.
  return merged(values, [main?.value ?? [], ...others]);
}
