// The aims that are set against a peer rather than a baseline of our own: the
// cold first call within 1.5× agent-browser's, one session's memory at most
// agent-browser's, and each added session at most 15 MiB. Each is judged from
// the side-by-side rows of the same run.
import { judge, type Verdict } from "../aims.js";
import { summarize } from "../stats.js";
import type { PeerRow } from "./table.js";

export const PEER = "agent-browser";

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

const valueOf = (row: PeerRow, tool: string): number | undefined => {
  const cell = row.cells[tool];
  return cell && "value" in cell && Number.isFinite(cell.value) ? cell.value : undefined;
};

export function peerVerdicts(rows: readonly PeerRow[], ours: string): Verdict[] {
  const out: Verdict[] = [];
  for (const { row: start, aim, against } of PEER_AIMS) {
    const row = rows.find((r) => r.name.startsWith(start));
    const mine = row && valueOf(row, ours);
    if (!row || mine === undefined) continue;
    const theirs = against === undefined ? undefined : valueOf(row, against);
    if (against !== undefined && theirs === undefined) continue;
    const ratio = theirs === undefined ? undefined : Math.round((mine / theirs) * 100) / 100;
    const name = against === undefined ? row.name : `${row.name}, vs ${against}`;
    const verdict = judge("peers", { name, sample: summarize([mine]), aim, ...(ratio === undefined ? {} : { ratio }) });
    if (verdict) out.push(verdict);
  }
  return out;
}
