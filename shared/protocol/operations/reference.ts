// The reference part of docs/operations.md, made from the operation table (a
// unit test keeps the file equal to it; `node scripts/operations-doc.mjs`
// rewrites it). Pure.
import { flagName, operationUsage, type ArgSpec, type OperationSpec } from "./spec.js";

export const REFERENCE_BEGIN = "<!-- operations: generated from shared/protocol/operations/table.ts, do not edit by hand -->";
export const REFERENCE_END = "<!-- end of generated operations -->";

function kindOf(arg: ArgSpec): string {
  const t = arg.type;
  switch (t.kind) {
    case "string":
      return t.choices ? t.choices.map((c) => `\`${c}\``).join(" \\| ") : "string";
    case "number":
      return t.min !== undefined && t.max !== undefined && t.max < 1e15 ? `integer ${t.min}–${t.max}` : "integer";
    case "boolean":
      return "boolean";
    case "strings":
      return "string[]";
    case "target":
      return "target";
    case "fields":
      return "[{ target, value }]";
    case "json":
      return "JSON";
  }
}

export function operationsReference(operations: readonly OperationSpec[]): string {
  const out: string[] = [REFERENCE_BEGIN, ""];
  for (const spec of operations) {
    out.push(`### \`${spec.name}\``, "", `${spec.help}.`, "", `\`betterwright ${operationUsage(spec)}\` → \`${spec.returns}\``, "");
    if (spec.args.length > 0) {
      out.push("| argument | type | CLI | |", "| --- | --- | --- | --- |");
      for (const arg of spec.args) {
        const cli = arg.positional ? "word" : `\`--${flagName(arg.name)}\``;
        out.push(`| \`${arg.name}\`${arg.required ? " (required)" : ""} | ${kindOf(arg)} | ${cli} | ${arg.help} |`);
      }
      out.push("");
    }
  }
  out.push(REFERENCE_END);
  return out.join("\n");
}
