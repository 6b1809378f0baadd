// The Agent Skill (SKILL.md) of the installed betterwright, made from the
// operation table and the error table so that it cannot drift from the code:
// the core loop, sessions and profiles, the vault, the guard, and when a
// snippet (exec) is the better tool. Pure.
import { ERROR_CODES } from "../shared/errors.js";
import { OPERATIONS, flagName, operationUsage } from "../shared/operations/index.js";
import { PACKAGE_VERSION } from "../shared/version.js";

const escapeCell = (text: string) => text.replace(/\|/g, "\\|");

function operationRows(): string[] {
  return OPERATIONS.map((spec) => {
    const flags = spec.args.filter((a) => !a.positional).map((a) => `--${flagName(a.name)}`);
    const usage = [operationUsage(spec), ...flags].join(" ");
    return `| \`${escapeCell(usage)}\` | ${escapeCell(spec.help)} |`;
  });
}

function errorRows(): string[] {
  return Object.entries(ERROR_CODES).map(([code, entry]) => `| \`${code}\` | ${escapeCell(entry.summary)}${entry.retryable ? " Retrying may help." : ""} |`);
}

/** SKILL.md for this version: YAML front matter (name, description), then the guide and the two tables. */
export function skillMarkdown(version = PACKAGE_VERSION): string {
  return [
    "---",
    "name: betterwright",
    `description: Browse, test and scrape the web from the shell with betterwright ${version}, a persistent, policy-guarded Chromium. Use when a task needs a real browser - pages that need JavaScript, logins, forms, clicking through a site, reading what a page shows - rather than a plain HTTP fetch.`,
    "---",
    "",
    `# betterwright ${version}`,
    "",
    "One browser per profile stays alive between commands; each command names a session (`-s NAME`) whose pages, cookies and refs persist. Every command prints a JSON envelope with `--json`: `ok`, `result`, `error.code`, console lines, the session's pages.",
    "",
    "## The core loop: snapshot, act on refs, diff",
    "",
    "```sh",
    "betterwright navigate -s task https://example.test/orders",
    "betterwright snapshot -s task --interactive       # one line per element you can act on, with refs: button \"Save\" [e12]",
    "betterwright find -s task \"Order 217\"             # in a big page: only the matching lines, with their refs",
    "betterwright click -s task e12                      # act on a ref of the latest snapshot",
    "betterwright fill -s task e5 \"ada@example.test\"",
    "betterwright snapshot -s task --diff              # only what changed since the last snapshot or find",
    "betterwright read -s task                         # the page's visible text",
    "```",
    "",
    "- A ref is valid until the next snapshot of the page or a navigation; a stale one fails at once with `STALE_REF` and nothing is done: snapshot again.",
    "- Without a ref, name the element: `click -s task --role button --name \"Save\"`, `--text`, `--label`, `--placeholder`, `--test-id`, `--selector`. A target that matches nothing fails within about 2 s with `ELEMENT_NOT_FOUND`; one covered by a banner or dialog with `ELEMENT_OBSCURED`, naming the cover.",
    "- A long snapshot comes in parts: pass the `cursor` it returns with `snapshot --cursor`.",
    "- Budgets: `--timeout SECONDS` per command (default 30).",
    "",
    "## Sessions and profiles",
    "",
    "- `-s NAME` picks a session (made on first use); `betterwright sessions` lists them; `betterwright close -s NAME` closes one; `betterwright close --all` stops the profile's browser.",
    "- `betterwright session create NAME --isolated` gives a session its own cookies and storage (one per user or role).",
    "- `--profile P` is a separate browser profile with its own daemon, vault and artifacts.",
    "- `betterwright state save NAME -s task` keeps a session's cookies and storage, encrypted; `betterwright state list` shows them.",
    "",
    "## The vault",
    "",
    "`betterwright credentials_fill -s task --submit` fills the login form of the page from the vault; the password never comes back in any output. Only the owner adds entries (`betterwright vault add --site URL --username NAME`, the password on stdin); `betterwright vault list` shows what exists, never a secret.",
    "",
    "## The network guard",
    "",
    "Every request the browser makes passes a policy: a refused one is `BLOCKED_URL`. `betterwright policy check URL` says whether a URL is allowed and why; the owner widens or narrows it with `--allow-host`, `--block-host`, `--block-private-network` or `--policy public-web`.",
    "",
    "## When to use exec instead",
    "",
    "A typed command is one step. For loops, many steps in one call, or data to compute, run a snippet (the body of an async function, with `page` and Playwright's API, in a sandbox):",
    "",
    "```sh",
    "betterwright exec -s task -c 'const rows = await page.locator(\"tr\").allInnerTexts(); return rows.filter((r) => r.includes(\"pending\")).length'",
    "```",
    "",
    "`exec` returns the snippet's value as `result`; a snippet sees the same pages and refs as the commands of its session.",
    "",
    "## Operations",
    "",
    "Each is a command (`betterwright NAME -s SESSION …`; TARGET is a ref or the locator flags above).",
    "",
    "| command | what it does |",
    "| --- | --- |",
    ...operationRows(),
    "",
    "## Error codes",
    "",
    "| code | meaning |",
    "| --- | --- |",
    ...errorRows(),
    "",
  ].join("\n");
}
