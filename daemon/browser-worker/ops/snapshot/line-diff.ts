// A line diff (Myers' O(ND) algorithm) between two renderings of a page, for
// `snapshot --diff`: only what changed, each hunk under the nearest unchanged
// line that encloses it (its parent in the tree), with counts. Pure.

export interface DiffCounts {
  added: number;
  removed: number;
  unchanged: number;
}

export interface LineDiff extends DiffCounts {
  /** `+ ` added, `- ` removed, `  ` context (the enclosing line of a hunk). */
  lines: string[];
}

/** Past this many edits a diff says little: the caller shows the whole snapshot instead (and memory stays ~D²). */
export const MAX_EDITS = 1_500;

type Edit = "=" | "+" | "-";

/** The furthest x on diagonal k before step d: the frontier saved for that step covers k in [-d-1, d+1]. */
function at(frontier: Int32Array, d: number, k: number): number {
  return frontier[k + d + 1]!;
}

/** The edit script from `a` to `b`, or undefined past `maxEdits`. */
export function editScript(a: readonly string[], b: readonly string[], maxEdits = MAX_EDITS): Edit[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number, dFinal: number): Edit[] {
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = dFinal; d > 0; d--) {
    const frontier = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(frontier, d, k - 1) < at(frontier, d, k + 1)) ? k + 1 : k - 1;
    const prevX = at(frontier, d, prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      edits.push("=");
      x--;
      y--;
    }
    edits.push(x === prevX ? "+" : "-");
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    edits.push("=");
    x--;
    y--;
  }
  return edits.reverse();
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** What changed from `before` to `after`, or undefined when too much did. */
export function diffLines(before: readonly string[], after: readonly string[], maxEdits = MAX_EDITS): LineDiff | undefined {
  const script = editScript(before, after, maxEdits);
  if (!script) return undefined;
  const lines: string[] = [];
  const counts: DiffCounts = { added: 0, removed: 0, unchanged: 0 };
  let i = 0;
  let j = 0;
  let lastContext = -1;
  let inHunk = false;
  for (const edit of script) {
    if (edit === "=") {
      counts.unchanged++;
      i++;
      j++;
      inHunk = false;
      continue;
    }
    if (!inHunk) {
      // The nearest unchanged line above, less indented than the change: its parent.
      const first = edit === "+" ? after[j]! : before[i]!;
      for (let p = j - 1; p >= 0 && p > lastContext; p--) {
        if (indentOf(after[p]!) < indentOf(first)) {
          lines.push(`  ${after[p]}`);
          lastContext = p;
          break;
        }
      }
      inHunk = true;
    }
    if (edit === "+") {
      lines.push(`+ ${after[j]}`);
      counts.added++;
      j++;
    } else {
      lines.push(`- ${before[i]}`);
      counts.removed++;
      i++;
    }
  }
  return { lines, ...counts };
}
