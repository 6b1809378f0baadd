// An aim is written beside its row ("≤ 1.5×", "≥ 0.7×", "≤ 2048 MB", "≤ 2 ms",
// "≥ 80 %", "0") and judged from the row itself: an aim in × against the row's
// ratio to its baseline, any other against the row's own figure. A run ends
// with every aim it measured, met (✓) or not (✗), so a regression shows in the
// run that made it rather than in a later reading of the tables.
import type { Row } from "./stats.js";

export interface Aim {
  op: "≤" | "≥" | "=";
  value: number;
  /** "×" compares the row's ratio; anything else (ms, MB, %, a count) the row's figure. */
  unit: string;
}

export interface Verdict {
  scenario: string;
  name: string;
  aim: string;
  /** The figure the aim was judged on: the ratio for × aims, the median otherwise. */
  measured: number | undefined;
  met: boolean | undefined;
}

const AIM = /^\s*(≤|<=|≥|>=)?\s*(\d+(?:\.\d+)?)\s*(×|x|ms|MB|MiB|%)?\s*$/;

/** Reads an aim's text; undefined for text that is not an aim. */
export function parseAim(text: string): Aim | undefined {
  const match = AIM.exec(text);
  if (!match) return undefined;
  const [, rawOp, number, rawUnit] = match;
  const op = rawOp === "≤" || rawOp === "<=" ? "≤" : rawOp === "≥" || rawOp === ">=" ? "≥" : "=";
  const unit = rawUnit === "x" ? "×" : rawUnit === "MiB" ? "MB" : (rawUnit ?? "");
  return { op, value: Number(number), unit };
}

/** Whether a row met its aim: undefined when it has none, or none that can be read, or no figure to judge. */
export function judge(scenario: string, row: Row): Verdict | undefined {
  if (row.aim === undefined) return undefined;
  const aim = parseAim(row.aim);
  const measured = aim?.unit === "×" ? row.ratio : row.sample.medianMs;
  if (!aim || measured === undefined || !Number.isFinite(measured)) return { scenario, name: row.name, aim: row.aim, measured, met: undefined };
  const met = aim.op === "≤" ? measured <= aim.value : aim.op === "≥" ? measured >= aim.value : measured === aim.value;
  return { scenario, name: row.name, aim: row.aim, measured, met };
}

export const mark = (met: boolean | undefined): string => (met === undefined ? "?" : met ? "✓" : "✗");

/** The closing table of a run: every aim it measured, and how many were met. */
export function formatAims(verdicts: readonly Verdict[]): string {
  const lines = ["| scenario | measurement | measured | aim | met |", "|---|---|---|---|---|"];
  for (const v of verdicts) lines.push(`| ${v.scenario} | ${v.name} | ${v.measured ?? "—"} | ${v.aim} | ${mark(v.met)} |`);
  const met = verdicts.filter((v) => v.met === true).length;
  return `${lines.join("\n")}\n\n${met} of ${verdicts.length} aims met.\n`;
}
