// The Agent Skill that `betterwright skill` prints and `skill --install`
// writes: a SKILL.md made from the operation table and the error table of
// this very build, so the verbs, flags and codes it names are the ones the
// installed CLI has. The prose around them is the loop an agent should follow.
import { ERROR_CODES } from "../../shared/protocol/errors.js";
import { flagName, OPERATIONS, operationUsage, type OperationSpec } from "../../shared/protocol/operations/index.js";

export const SKILL_NAME = "betterwright";

/** Markdown table cells hold no pipes and no line breaks. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");

function verbRow(spec: OperationSpec): string {
  const flags = spec.args.filter((a) => !a.positional).map((a) => `\`--${flagName(a.name)}\``);
  return `| \`${operationUsage(spec)}\` | ${cell(spec.help)} | ${flags.join(" ") || "—"} |`;
}

/** The codes an agent can meet: all but those only the HTTP API answers with. */
export function agentErrorCodes(): string[] {
  return Object.entries(ERROR_CODES).filter(([, { summary }]) => !summary.includes("HTTP API")).map(([code]) => code);
}

function errorRows(): string[] {
  const codes = new Set(agentErrorCodes());
  return Object.entries(ERROR_CODES).filter(([code]) => codes.has(code)).map(([code, { summary, retryable }]) => `| \`${code}\` | ${cell(summary)} | ${retryable ? "yes" : "no"} |`);
}

export function skillText(version: string): string {
  const description =
    "Drive a real, persistent Chromium from the shell with the `betterwright` CLI: open pages, read them as compact text with refs, click, fill, " +
    "select, log in from a credential vault, take screenshots and download files, in named sessions that keep their pages between calls, behind a " +
    "network guard. Use it for any task that needs a web browser.";
  return `---
name: ${SKILL_NAME}
description: ${description}
---

# betterwright ${version}

A daemon keeps one Chromium alive between calls; every call names a **session** (\`-s NAME\`), whose pages, cookies and \`state\` are still there at
the next call. Every command prints one JSON envelope when piped (\`{ ok, result, error: { code, message, retryable }, pages, warnings }\`), or text
on a terminal; add \`--json\` to always get the envelope. Exit 0 ok, 1 the call failed, 2 bad usage, 3 no browser or daemon.

## The loop: snapshot, act on refs, diff

\`\`\`sh
betterwright navigate -s task https://example.com/login
betterwright snapshot -s task --interactive      # - textbox "Email" [e5]  - button "Sign in" [e9] …
betterwright fill -s task e5 ada@example.com
betterwright click -s task e9
betterwright snapshot -s task --diff             # only what changed since the last snapshot
\`\`\`

- Act on the refs (\`e12\`, \`f1e3\` in a frame) of the **latest** snapshot. After a navigation or a change of the element, a ref fails at once with
  \`STALE_REF\` and nothing is done: take a new snapshot.
- In a big page, go straight to the element instead of paging through the tree: \`betterwright find -s task "row 217"\` returns the matching
  snapshot lines with their refs; or act by locator: \`betterwright click -s task --role button --name "Save"\` (also \`--text\`, \`--label\`,
  \`--placeholder\`, \`--test-id\`, \`--selector\`). A locator that matches several elements fails with \`LOCATOR_AMBIGUOUS\`.
- A long snapshot or read comes in pages: the answer's \`cursor\` continues it (\`snapshot -s task --cursor C\`).
- \`betterwright read -s task\` gives the page's text; \`screenshot -s task\` a PNG in the session's artifact folder (its path is in the result; \`screenshot -s task page.png\` also copies it there).
- Passwords and vault secrets never appear in any answer.

## Operations

Each is a verb: \`betterwright VERB [WORDS] -s SESSION [--timeout SECONDS] [--args JSON]\`; \`betterwright VERB --help\` says more.

| verb | what it does | flags |
|---|---|---|
${OPERATIONS.map(verbRow).join("\n")}

## When to write JavaScript instead

For loops, extraction of many values or anything the verbs cannot say, run a snippet: the body of an async function with \`page\` (Playwright), \`state\`
(kept across calls), \`args\`, \`snapshot()\`, \`screenshot()\` and \`credentials\`. Its return value is the envelope's \`result\`.

\`\`\`sh
betterwright exec -s task -c 'const rows = await page.locator("tr").allTextContents(); return rows.slice(0, 20)'
betterwright exec -s task --args '{"q":"shoes"}' -c 'await page.fill("#q", args.q); await page.press("#q", "Enter"); return page.url()'
\`\`\`

## Sessions and profiles

- \`-s NAME\` picks a session (default \`default\`); sessions run concurrently, and one session's calls run strictly in order.
- \`betterwright session create NAME --isolated\` gives a session its own cookies and storage; \`betterwright state save NAME -s S\` keeps a login
  for later (\`session create NEW --isolated --state NAME\`).
- \`--profile P\` is another identity: its own daemon, browser profile and cookie jar.
- \`betterwright sessions\` lists them; \`betterwright close -s NAME\` closes one; \`betterwright transcript -s NAME\` shows what ran.

## Credentials

Secrets live in the owner's vault (\`betterwright vault add\`, by a person). Fill a login without ever seeing it:
\`betterwright credentials_fill -s task\` on the login page. Never ask for a password, and never print one.

## The network guard

Every request passes a policy: cloud metadata addresses are never reachable, and a profile may refuse private networks or all but the public
web. A refused URL fails with \`BLOCKED_URL\`; \`betterwright policy check URL\` says why without loading anything. Do not try to get around it.

## Errors

Read \`error.code\`, not the message. \`retryable: yes\` means the same call may work later.

| code | meaning | retryable |
|---|---|---|
${errorRows().join("\n")}

## Reporting a problem

If betterwright itself misbehaves (\`INTERNAL_ERROR\`, a crash, an answer that contradicts the page), say so to the user with the command, the
envelope and \`betterwright doctor\`'s output; do not work around it silently.
`;
}
