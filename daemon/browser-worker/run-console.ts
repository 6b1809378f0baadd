// What a run's envelope keeps of the console, the snippet's and its pages':
// at most so many entries, each cut to so many characters.
import type { ConsoleEntry } from "../../shared/protocol/envelope.js";

export const MAX_CONSOLE_ENTRIES = 200;
export const MAX_CONSOLE_TEXT = 2000;

export function pushConsole(run: { console: ConsoleEntry[] }, entry: ConsoleEntry): void {
  if (run.console.length >= MAX_CONSOLE_ENTRIES) return;
  run.console.push({ ...entry, text: entry.text.length > MAX_CONSOLE_TEXT ? `${entry.text.slice(0, MAX_CONSOLE_TEXT)}…` : entry.text });
}
