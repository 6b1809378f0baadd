// A URL pattern as operations take it: exact, or a glob where `*` matches
// within a path segment and `**` across segments (Playwright's own globs,
// minus the rarer forms). Pure.

export function urlMatcher(pattern: string): (url: string) => boolean {
  if (!pattern.includes("*")) return (url) => url === pattern;
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (c === "*") source += "[^/]*";
    else source += c.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  const re = new RegExp(`^${source}$`);
  return (url) => re.test(url);
}
