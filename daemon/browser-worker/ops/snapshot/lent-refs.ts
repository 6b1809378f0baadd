// An element an agent acts on that Playwright gave no ref, because it takes
// no pointer (a visually hidden checkbox under a drawn box, in a web
// component's shadow root, say), shows the ref of its nearest ancestor that
// has one: acting there is what a person does (check clicks that checkbox's
// label, checkable.ts). Changes the tree in place, as maskPasswords does. Pure.
import { INTERACTIVE_ROLES, type AriaTree } from "./aria-render.js";

export function lendRefs(tree: AriaTree, lender?: string): AriaTree {
  for (const node of tree) {
    if (typeof node === "string") continue;
    if (node.ref === undefined && lender !== undefined && INTERACTIVE_ROLES.has(node.role)) node.ref = lender;
    lendRefs(node.children ?? [], node.ref ?? lender);
  }
  return tree;
}
