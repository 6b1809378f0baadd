// Where a snippet comes from: -c CODE, a file, or stdin (`-`, or piped input).
import { readFileSync } from "node:fs";
import { BwError } from "../shared/protocol/errors.js";
import { MAX_CODE_CHARS } from "../shared/protocol/methods/index.js";

export async function readCode(options: { code?: string | undefined; file?: string | undefined }): Promise<string> {
  if (options.code !== undefined && options.file !== undefined) {
    throw new BwError("INVALID_ARGUMENT", "give the snippet either with -c or as FILE, not both");
  }
  let code: string;
  if (options.code !== undefined) code = options.code;
  else if (options.file !== undefined && options.file !== "-") {
    try {
      code = readFileSync(options.file, "utf8");
    } catch (error) {
      throw new BwError("INVALID_ARGUMENT", `cannot read ${options.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else if (options.file === "-" || !process.stdin.isTTY) code = await (await import("node:stream/consumers")).text(process.stdin);
  else throw new BwError("INVALID_ARGUMENT", "no snippet: pass -c CODE, a FILE, or pipe it on stdin");
  if (code.trim() === "") throw new BwError("INVALID_ARGUMENT", "the snippet is empty");
  if (code.length > MAX_CODE_CHARS) throw new BwError("INVALID_ARGUMENT", `the snippet is longer than ${MAX_CODE_CHARS} characters`);
  return code;
}
