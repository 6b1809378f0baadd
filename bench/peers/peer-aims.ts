// The aims that are set against a peer rather than a baseline of our own: the
// cold first call within 1.5× agent-browser's, one session's memory at most
// agent-browser's, and each added session at most 15 MiB; over MCP, every row
// at or ahead of Playwright MCP. Each is judged from the side-by-side rows of
// the same run.
import { judge, type Verdict } from "../aims.js";
import { summarize } from "../stats.js";
import { MCP_ROWS } from "./mcp-measure.js";
import type { PeerRow } from "./table.js";

export const PEER = "agent-browser";
export const MCP_PEER = "Playwright MCP";

interface PeerAim {
  /** The start of the row's name. */
  row: string;
  /** An aim in ×, judged on ours / the peer's; or an aim on our own figure. */
  aim: string;
  against?: string;
}

export const PEER_AIMS: readonly PeerAim[] = [
  { row: "cold first call", aim: "≤ 1.5×", against: PEER },
  { row: "memory, 1 session(s) open", aim: "≤ 1×", against: PEER },
  { row: "memory, each session added", aim: "≤ 15 MB" },
];

/** Fewer bytes, fewer calls, less time than Playwright MCP on every MCP row (1× is a tie). */
export const MCP_PEER_AIMS: readonly PeerAim[] = Object.values(MCP_ROWS).map((row) => ({ row, aim: "≤ 1×", against: MCP_PEER }));

const valueOf = (row: PeerRow, tool: string): number | undefined => {
  const cell = row.cells[tool];
  return cell && "value" in cell && Number.isFinite(cell.value) ? cell.value : undefined;
};

/** Every aim with a row in `rows` (each row whose name starts with the aim's). */
export function peerVerdicts(rows: readonly PeerRow[], ours: string, aims: readonly PeerAim[] = PEER_AIMS, scenario = "peers"): Verdict[] {
  const out: Verdict[] = [];
  for (const { row: start, aim, against } of aims) {
    for (const row of rows.filter((r) => r.name.startsWith(start))) {
      const verdict = verdictOf(row, ours, aim, against, scenario);
      if (verdict) out.push(verdict);
    }
  }
  return out;
}

function verdictOf(row: PeerRow, ours: string, aim: string, against: string | undefined, scenario: string): Verdict | undefined {
  const mine = valueOf(row, ours);
  if (mine === undefined) return undefined;
  const theirs = against === undefined ? undefined : valueOf(row, against);
  if (against !== undefined && theirs === undefined) return undefined;
  const ratio = theirs === undefined ? undefined : Math.round((mine / theirs) * 100) / 100;
  const name = against === undefined ? row.name : `${row.name}, vs ${against}`;
  return judge(scenario, { name, sample: summarize([mine]), aim, ...(ratio === undefined ? {} : { ratio }) });
}
