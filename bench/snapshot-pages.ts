// Three fixed pages for measuring snapshots: a small form, a 300-row table
// and a long article. Deterministic (no randomness), served on 127.0.0.1.
import http from "node:http";
import type { AddressInfo } from "node:net";

const form = `<title>Sign up</title><main><h1>Create your account</h1>
<form><fieldset><legend>About you</legend>
<label>First name <input name="first"></label><label>Last name <input name="last"></label>
<label>Email <input type="email" name="email" placeholder="you@example.com"></label>
<label>Password <input type="password" name="pw" value="correct horse"></label>
<label>Country <select name="country">${["Austria", "Belgium", "Chile", "Denmark", "Egypt", "France", "Ghana", "Hungary", "India", "Japan"].map((c) => `<option>${c}</option>`).join("")}</select></label>
</fieldset><fieldset><legend>Plan</legend>
<label><input type="radio" name="plan" checked> Free</label><label><input type="radio" name="plan"> Pro</label><label><input type="radio" name="plan"> Team</label>
</fieldset><label><input type="checkbox" name="terms"> I accept the <a href="/terms">terms</a></label>
<button>Create account</button> <button type="reset">Clear</button></form>
<p>Already have an account? <a href="/login">Sign in</a></p></main>
<footer><nav><a href="/about">About</a> · <a href="/privacy">Privacy</a> · <a href="/help">Help</a></nav></footer>`;

const table = `<title>Orders</title><header><nav><a href="/">Home</a> <a href="/orders">Orders</a> <a href="/customers">Customers</a></nav>
<input type="search" aria-label="Search orders"></header><main><h1>Orders</h1>
<table><thead><tr><th>Order</th><th>Customer</th><th>Status</th><th>Total</th><th>Actions</th></tr></thead><tbody>
${Array.from({ length: 300 }, (_, i) => `<tr><td>#${10000 + i}</td><td>Customer ${(i * 37) % 211}</td><td>${["paid", "shipped", "refunded", "pending"][i % 4]}</td><td>${((i * 1931) % 50000) / 100} EUR</td><td><a href="/orders/${10000 + i}">View</a> <button>Refund</button></td></tr>`).join("\n")}
</tbody></table><button>Load more</button></main>`;

const words = "the quick brown fox jumps over the lazy dog while a careful reader keeps track of every clause in the long sentence".split(" ");
const paragraph = (n: number) => Array.from({ length: 90 }, (_, i) => words[(i * 7 + n) % words.length]).join(" ");
const article = `<title>A long article</title><header><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav></header>
<main><article><h1>On reading long pages</h1><p>By A. Writer · <a href="/authors/a">profile</a></p>
${Array.from({ length: 12 }, (_, s) => `<h2>Section ${s + 1}</h2>${Array.from({ length: 4 }, (_, p) => `<p>${paragraph(s * 4 + p)} <a href="/ref/${s}-${p}">reference</a>.</p>`).join("")}`).join("\n")}
</article><aside><h2>Related</h2><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/post/${i}">Post ${i}</a></li>`).join("")}</ul></aside></main>
<footer><p>© Example</p></footer>`;

export const SNAPSHOT_PAGES = { form, table, article } as const;
export type SnapshotPage = keyof typeof SNAPSHOT_PAGES;

export async function startSnapshotPages(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const name = (req.url ?? "/").slice(1) as SnapshotPage;
    const page = SNAPSHOT_PAGES[name];
    if (page === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}
