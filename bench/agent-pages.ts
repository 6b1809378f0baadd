// Pages for the tasks an agent does through MCP, served by the bench's page
// server under /agent/: a small page with a counter, the snapshot pages (a
// sign-up form, a 300-row table whose every row's button changes that row's
// status, a long article), and a login form that leads to a welcome page.
import { SNAPSHOT_PAGES } from "./snapshot-pages.js";

export const LOGIN = { user: "ada", password: "correct horse" } as const;
/** What a row's status reads once its button was clicked. */
export const REFUNDED = "refund requested";
export const WELCOME = "Welcome, ada";

const small = `<title>Small</title><main><h1>Counter</h1><p>Clicked <output id="n">0</output> times</p>
<button onclick="document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)">Add one</button></main>`;

// One listener for the table: a row's button writes the new status into that row's status cell.
const table = `${SNAPSHOT_PAGES.table}<script>document.querySelector("tbody").addEventListener("click", (e) => {
  if (!(e.target instanceof HTMLButtonElement)) return;
  e.target.closest("tr").children[2].textContent = ${JSON.stringify(REFUNDED)};
});</script>`;

const login = (message: string) => `<title>Sign in</title><main><h1>Sign in</h1>${message ? `<p role="alert">${message}</p>` : ""}
<form method="post" action="/agent/login"><label>Username <input name="user" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form><p><a href="/agent/reset">Forgot your password?</a></p></main>`;

const welcome = `<title>Welcome</title><main><h1>${WELCOME}</h1><p>You have 3 new messages.</p><nav><a href="/agent/login">Sign out</a></nav></main>`;

export interface AgentResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const html = (body: string, status = 200): AgentResponse => ({ status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }, body });

/** The answer to a request under /agent/, or undefined for any other path. `body` is a form post's body. */
export function agentPage(method: string, path: string, body = ""): AgentResponse | undefined {
  const [route] = path.split("?");
  if (route === "/agent/small") return html(small);
  if (route === "/agent/table") return html(table);
  if (route === "/agent/form") return html(SNAPSHOT_PAGES.form);
  if (route === "/agent/article") return html(SNAPSHOT_PAGES.article);
  if (route === "/agent/welcome") return html(welcome);
  if (route !== "/agent/login") return undefined;
  if (method !== "POST") return html(login(""));
  const form = new URLSearchParams(body);
  if (form.get("user") === LOGIN.user && form.get("password") === LOGIN.password) return { status: 303, headers: { location: "/agent/welcome" }, body: "" };
  return html(login("Wrong username or password"), 401);
}
