// What a capture reads of the page besides its tree, in as few round trips as
// it can: the values in the password fields, so that no snapshot shows one
// (maskPasswords masks any textbox showing such a value, and every textbox's
// value when a frame's fields could not be read), and the title, which the
// envelope then need not read again. The main frame's values and title ride
// on the read that tells its document; the read after the capture is made
// only when the tree shows a value that could be a password.
import type { Page } from "playwright-core";
import type { OperationCall } from "../op-context.js";
import type { PageDocument } from "../page-state.js";
import type { AriaTree } from "./aria-render.js";

interface Queryable {
  querySelectorAll(selectors: string): ArrayLike<{ localName: string; type?: unknown; value?: unknown; shadowRoot?: Queryable | null }>;
  title?: unknown;
}

export interface DocumentFacts {
  /** The non-empty values of the password fields; null when the page's DOM would not tell. */
  passwords: string[] | null;
  title: string | null;
}

/**
 * Runs in the page (serialized: nothing from outside itself): the password values of `doc` (the frame's
 * own document when none is given), open shadow roots included, as Playwright's snapshot reaches into
 * them, and its title. Never throws, so that a page cannot make its document look gone.
 */
export function documentFacts(doc?: unknown): DocumentFacts {
  const root = (doc ?? (globalThis as { document?: unknown }).document) as Queryable;
  let title: string | null = null;
  try {
    title = typeof root.title === "string" ? root.title : null;
  } catch {
    // a title getter the page broke: the envelope reads the title itself
  }
  const values: string[] = [];
  const visit = (node: Queryable): void => {
    const all = node.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const el = all[i]!;
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.localName === "input" && el.type === "password" && typeof el.value === "string" && el.value !== "") values.push(el.value);
    }
  };
  try {
    visit(root);
    return { passwords: values, title };
  } catch {
    return { passwords: null, title };
  }
}

/** Values read so far, or "all" once a frame's could not be read (every textbox value is then masked). */
export type PasswordValues = Set<string> | "all";

function merged(into: PasswordValues, found: readonly (string[] | null)[]): PasswordValues {
  if (into === "all" || found.includes(null)) return "all";
  for (const values of found) for (const v of values!) into.add(v);
  return into;
}

/** The password values of the page's frames other than the main one, each read on its own (a frame gone meanwhile has none). */
function childFrames(page: Page): Promise<(string[] | null)[]> {
  const main = page.mainFrame();
  return Promise.all(page.frames().filter((f) => f !== main).map((f) => f.evaluate(documentFacts).then((facts) => facts.passwords, () => [] as string[])));
}

/** Before a capture: the page's document number and the values in its password fields (every frame); the title goes to the envelope. */
export async function documentAndPasswords(ctx: OperationCall, pageId: string, page: Page, document: PageDocument): Promise<{ document: number; values: PasswordValues }> {
  const [main, others] = await Promise.all([ctx.readTitle(pageId, () => document.read(documentFacts), (r) => r.value.title), childFrames(page)]);
  return { document: main.document, values: merged(new Set(), [main.value.passwords, ...others]) };
}

/** Whether a textbox in the tree shows a value (only such a value can be a password). */
export function showsFieldValue(tree: AriaTree): boolean {
  return tree.some((n) => typeof n !== "string" && (((n.role === "textbox" || n.role === "searchbox") && !!n.text) || showsFieldValue(n.children ?? [])));
}

/** After a capture of document `generation`: `values` with those now in the password fields, when the tree may show one. */
export async function passwordsAfter(page: Page, document: PageDocument, generation: number, tree: AriaTree, values: PasswordValues): Promise<PasswordValues> {
  if (values === "all" || !showsFieldValue(tree)) return values;
  const [main, others] = await Promise.all([document.within(generation, documentFacts), childFrames(page)]);
  // The page shows another document than the one captured: the values read before stand for it alone.
  return merged(values, [main?.value.passwords ?? [], ...others]);
}
