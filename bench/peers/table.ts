// The side-by-side table: one row per measurement, one column per tool, each
// cell the tool's figure and how many times the row's best it is (1× is the
// best, whichever way the row counts). A tool that could not be installed or
// run keeps its column, with the reason.

export type Cell = { value: number; min?: number; max?: number; n?: number } | { error: string };

export interface PeerRow {
  name: string;
  better: "lower" | "higher";
  /** Whole numbers (calls, bytes), printed without decimals. */
  counts?: boolean;
  cells: Record<string, Cell>;
}

export interface Column {
  name: string;
  version?: string;
  /** Why the tool was not measured at all. */
  problem?: string;
  /** How it was run, printed under the table. */
  note?: string;
}

const hasValue = (cell: Cell | undefined): cell is { value: number } => cell !== undefined && "value" in cell && Number.isFinite(cell.value) && cell.value > 0;

/** Each measured cell's distance from the row's best: ≥ 1, and 1 for the best. */
export function ratiosToBest(row: PeerRow): Record<string, number> {
  const values = Object.entries(row.cells).filter(([, c]) => hasValue(c)) as [string, { value: number }][];
  if (!values.length) return {};
  const best = row.better === "lower" ? Math.min(...values.map(([, c]) => c.value)) : Math.max(...values.map(([, c]) => c.value));
  return Object.fromEntries(values.map(([name, c]) => [name, row.better === "lower" ? c.value / best : best / c.value]));
}

export function formatNumber(n: number): string {
  const abs = Math.abs(n);
  return abs >= 100 ? n.toFixed(0) : abs >= 10 ? n.toFixed(1) : n.toFixed(2);
}

function formatRatio(r: number): string {
  return `${r < 10 ? r.toFixed(2) : r.toFixed(1)}×`;
}

/** Markdown cells hold no pipes and no line breaks. */
function cellText(text: string): string {
  return text.replace(/\|/g, "/").replace(/\s*\n\s*/g, " ").trim();
}

export function formatPeersTable(columns: readonly Column[], rows: readonly PeerRow[]): string {
  const header = `| measurement | ${columns.map((c) => (c.version ? `${c.name} ${c.version}` : c.name)).join(" | ")} |`;
  const rule = `|---|${columns.map(() => "---").join("|")}|`;
  const lines = [header, rule];
  if (columns.some((c) => c.problem)) {
    lines.push(`| measured | ${columns.map((c) => (c.problem ? cellText(`no: ${c.problem}`) : "yes")).join(" | ")} |`);
  }
  for (const row of rows) {
    const ratios = ratiosToBest(row);
    const cells = columns.map((c) => {
      if (c.problem) return "—";
      const cell = row.cells[c.name];
      if (cell === undefined) return "—";
      if ("error" in cell) return cellText(`failed: ${cell.error.slice(0, 160)}`);
      const ratio = ratios[c.name];
      const value = row.counts ? String(Math.round(cell.value)) : formatNumber(cell.value);
      return ratio === undefined ? value : `${value} (${formatRatio(ratio)})`;
    });
    lines.push(`| ${cellText(row.name)} | ${cells.join(" | ")} |`);
  }
  const notes = columns.filter((c) => c.note).map((c) => `- ${c.name}: ${cellText(c.note!)}`);
  return `${lines.join("\n")}\n${notes.length ? `\n${notes.join("\n")}\n` : ""}`;
}
