// The live view's page: static HTML and one script, no build step. Every
// value from the server (page titles, URLs, transcript text: all of it may
// come from web pages) is put in with textContent, never as markup, and the
// Content-Security-Policy allows this origin's script only.
import type { Context } from "hono";

export function liveSecurityHeaders(c: Context): void {
  c.header("content-security-policy", "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
  c.header("x-content-type-options", "nosniff");
  c.header("referrer-policy", "no-referrer");
  c.header("cache-control", "no-store");
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5rem;color:#222}h1{font-size:1.2rem}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:1rem}
.card{border:1px solid #ccc;border-radius:6px;padding:.6rem;cursor:pointer}.card.open{grid-column:1/-1;cursor:default}
.card img{width:100%;border:1px solid #eee;background:#fafafa;min-height:2rem}.meta{color:#666;font-size:12px;word-break:break-all}
ol{padding-left:1.2rem;font:12px ui-monospace,monospace}li.fail{color:#a00}.bad{color:#a00}
.controls{display:none;gap:.3rem;margin:.4rem 0;flex-wrap:wrap}.card.open.handoff .controls{display:flex}.card.open.handoff img{cursor:crosshair}`;

export function loginPage(failed: boolean): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>betterwright live view</title><style>${STYLE}</style></head>
<body><h1>betterwright live view</h1>${failed ? '<p class="bad">That token is not this server\'s.</p>' : ""}
<form method="post" action="/login"><label>Token <input type="password" name="token" autocomplete="off" autofocus required></label> <button>Log in</button></form>
<p class="meta">The token is the one <code>betterwright serve</code> printed the path of (or BETTERWRIGHT_TOKEN).</p></body></html>`;
}

export function viewPage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>betterwright live view</title><style>${STYLE}</style></head>
<body><h1>betterwright live view <span class="meta" id="profile"></span></h1>
<form method="post" action="/logout"><button>Log out</button> <span class="meta" id="status"></span></form>
<div class="grid" id="sessions"></div><script src="/live.js"></script></body></html>`;
}

/**
 * Polls /live/sessions every 2 s; the session opened (clicked) gets a fresh screenshot every second. A session
 * opened with hand-off takes a person's clicks on its screenshot (in the image's native pixels), text and keys.
 */
export const LIVE_SCRIPT = `"use strict";
(() => {
  const grid = document.getElementById("sessions");
  const status = document.getElementById("status");
  let open = null;
  const cards = new Map();
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  function card(name) {
    let c = cards.get(name);
    if (c) return c;
    const root = el("div", "card"); root.dataset.session = name;
    const title = el("strong"); const meta = el("div", "meta"); const img = el("img"); img.alt = "screenshot of " + name;
    const list = el("ol");
    const controls = el("div", "controls");
    const text = el("input"); text.placeholder = "text to type";
    const send = el("button", "", "Type");
    send.addEventListener("click", (e) => { e.stopPropagation(); if (text.value) relay(name, { type: "text", text: text.value }).then(() => { text.value = ""; }); });
    text.addEventListener("click", (e) => e.stopPropagation());
    controls.append(text, send);
    for (const key of ["Enter", "Tab", "Escape", "Backspace"]) {
      const b = el("button", "", key);
      b.addEventListener("click", (e) => { e.stopPropagation(); relay(name, { type: "key", key }); });
      controls.append(b);
    }
    for (const [label, deltaY] of [["Scroll up", -400], ["Scroll down", 400]]) {
      const b = el("button", "", label);
      b.addEventListener("click", (e) => { e.stopPropagation(); relay(name, { type: "scroll", deltaY }); });
      controls.append(b);
    }
    img.addEventListener("click", (e) => {
      if (open !== name || !root.classList.contains("handoff") || !img.naturalWidth) return;
      e.stopPropagation();
      const x = Math.floor((e.offsetX * img.naturalWidth) / img.clientWidth);
      const y = Math.floor((e.offsetY * img.naturalHeight) / img.clientHeight);
      relay(name, { type: "click", x, y });
    });
    root.append(title, meta, controls, img, list);
    root.addEventListener("click", () => { open = open === name ? null : name; refresh(); });
    c = { root, title, meta, img, list, shot: 0 };
    cards.set(name, c);
    grid.append(root);
    return c;
  }
  function shot(c, name, fresh) {
    const now = Date.now();
    if (now - c.shot < (fresh ? 1000 : 4000)) return;
    c.shot = now;
    const next = new Image();
    next.onload = () => { c.img.src = next.src; c.img.dataset.loaded = String(now); };
    next.src = "/live/sessions/" + encodeURIComponent(name) + "/screenshot?" + (fresh ? "fresh=1&" : "") + "t=" + now;
  }
  async function relay(name, input) {
    const r = await fetch("/live/sessions/" + encodeURIComponent(name) + "/input", { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
    status.textContent = r.ok ? "sent " + input.type : "not sent: " + ((await r.json().catch(() => null))?.error?.message ?? r.status);
    const c = cards.get(name);
    if (c) { c.shot = 0; shot(c, name, true); }
  }
  async function refresh() {
    let data;
    try {
      const r = await fetch("/live/sessions", { credentials: "same-origin", cache: "no-store" });
      if (r.status === 401) { location.reload(); return; }
      data = await r.json();
    } catch (e) { status.textContent = "not reachable"; return; }
    status.textContent = "updated " + new Date().toLocaleTimeString() + (data.policy !== "public-web" ? " — policy: " + data.policy : "");
    document.getElementById("profile").textContent = "profile " + data.profile;
    const seen = new Set();
    for (const s of data.sessions) {
      seen.add(s.name);
      const c = card(s.name);
      c.root.classList.toggle("open", open === s.name);
      c.root.classList.toggle("handoff", s.handoff);
      c.title.textContent = s.name + (s.served ? " (HTTP)" : "") + (s.inFlight ? " — running" : "");
      c.meta.textContent = (s.title ? s.title + " — " : "") + (s.url || "no page yet");
      c.list.replaceChildren(...s.transcript.map((t) => el("li", t.ok ? "" : "fail", "#" + t.seq + " " + t.what + (t.url ? " · " + t.url : "") + (t.ok ? " · ok" : " → " + (t.error || "failed")))));
      shot(c, s.name, open === s.name && s.served);
    }
    for (const [name, c] of cards) if (!seen.has(name)) { c.root.remove(); cards.delete(name); }
  }
  refresh();
  setInterval(refresh, 2000);
  setInterval(() => { if (open) { const c = cards.get(open); if (c) shot(c, open, true); } }, 1000);
})();
`;
