// What check and uncheck act on. A styled checkbox is often a visually hidden
// <input> (clipped, covered by a drawn box) that takes no pointer: a person
// clicks its label, and so does the operation. A target that is a wrapper of
// exactly one checkbox or radio (a web component's host, a row) means that one.
import type { ElementHandle } from "playwright-core";
import type { OperationCall } from "./op-context.js";
import type { Actionable, Resolved } from "./targets.js";

type Element = Exclude<Resolved, { kind: "point" }>;

// Runs in the page (Playwright sends its source): the DOM is reached through the element, not Node's types.
function whereToClick(e: any): any {
  const isBox = (el: any) => el?.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio");
  let box = e;
  const role = e.getAttribute?.("role");
  if (!isBox(e) && role !== "checkbox" && role !== "radio" && role !== "switch" && e.tagName !== "LABEL") {
    const inner = (e.shadowRoot ?? e).querySelectorAll("input[type=checkbox], input[type=radio]");
    if (inner.length !== 1) return e;
    box = inner[0];
  }
  if (!isBox(box)) return box;
  const r = box.getBoundingClientRect();
  const root = box.getRootNode();
  const view = globalThis as any;
  const inView = r.bottom > 0 && r.right > 0 && r.top < view.innerHeight && r.left < view.innerWidth;
  const takesPointer = r.width * r.height >= 4 && (!inView || root.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === box);
  return takesPointer ? box : (box.labels?.[0] ?? box.closest("label") ?? box);
}

/** The element a check or uncheck clicks for `resolved`: itself, its one checkbox, or that checkbox's label. */
export async function checkable(ctx: OperationCall, resolved: Element): Promise<Element> {
  const handle = await resolved.element.evaluateHandle(whereToClick).catch(() => undefined);
  const element = handle?.asElement() as ElementHandle | null | undefined;
  if (!element) {
    void handle?.dispose().catch(() => {});
    return resolved;
  }
  ctx.defer(() => element.dispose());
  return { ...resolved, element: element as unknown as Actionable };
}
