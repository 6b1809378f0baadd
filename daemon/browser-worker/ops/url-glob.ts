// A URL pattern as operations take it: exact, or a glob where `*` matches
// within a path segment and `**` across segments (Playwright's own globs,
// minus the rarer forms). Matched by walking the set of pattern positions a
// prefix of the URL can reach, so time is linear in the URL (times the
// pattern's length at worst): a pattern like `**a**a**a**b` runs on the
// worker's main thread and must not backtrack. Pure.

type Token = { star: "segment" | "any" } | { char: string };

function tokens(pattern: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "*") out.push({ char: pattern[i]! });
    else if (pattern[i + 1] === "*") {
      out.push({ star: "any" });
      while (pattern[i + 1] === "*") i++;
    } else out.push({ star: "segment" });
  }
  return out;
}

export function urlMatcher(pattern: string): (url: string) => boolean {
  if (!pattern.includes("*")) return (url) => url === pattern;
  const pat = tokens(pattern);
  const m = pat.length;
  return (url) => {
    let states = new Uint8Array(m + 1);
    let next = new Uint8Array(m + 1);
    // Positions reachable without reading: a star may match nothing.
    const close = (set: Uint8Array) => {
      for (let p = 0; p < m; p++) if (set[p] && "star" in pat[p]!) set[p + 1] = 1;
    };
    states[0] = 1;
    close(states);
    for (let i = 0; i < url.length; i++) {
      const c = url[i]!;
      next.fill(0);
      let any = false;
      for (let p = 0; p < m; p++) {
        if (!states[p]) continue;
        const t = pat[p]!;
        if ("char" in t) {
          if (t.char === c) { next[p + 1] = 1; any = true; }
        } else if (t.star === "any" || c !== "/") { next[p] = 1; any = true; }
      }
      if (!any) return false;
      close(next);
      [states, next] = [next, states];
    }
    return states[m] === 1;
  };
}
