// The words a boolean setting may be written with (config.json strings, the
// environment, flags). No imports: the CLI's launcher reads one before
// anything else is loaded.
const TRUE_WORDS = ["1", "true", "yes", "on"];
const FALSE_WORDS = ["0", "false", "no", "off", ""];

/** true or false for a boolean word (any case, spaces around it ignored); undefined for anything else. */
export function boolWord(text: string): boolean | undefined {
  const v = text.trim().toLowerCase();
  if (TRUE_WORDS.includes(v)) return true;
  if (FALSE_WORDS.includes(v)) return false;
  return undefined;
}
