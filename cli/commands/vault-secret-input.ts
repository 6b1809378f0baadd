// Where `vault add` / `vault update` get a password: stdin when it is piped,
// otherwise a prompt on the terminal that does not echo. Never argv, which
// every user of the machine can read.
import { text } from "node:stream/consumers";
import { BwError } from "../../shared/protocol/errors.js";
import { VAULT_LIMITS } from "../../shared/protocol/methods/index.js";

const ENTER = new Set(["\r", "\n", "\u0004"]);
const CTRL_C = "\u0003";
const BACKSPACE = new Set(["\u007f", "\b"]);

/** One hidden line from the terminal on stdin; the prompt goes to stderr. */
function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: Error): void => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ENTER.has(ch)) return finish();
        if (ch === CTRL_C) return finish(new BwError("CANCELLED", "cancelled at the password prompt"));
        if (BACKSPACE.has(ch)) value = [...value].slice(0, -1).join("");
        else value += ch;
      }
    };
    process.stderr.write(prompt);
    stdin.setEncoding("utf8");
    stdin.setRawMode(true);
    stdin.on("data", onData);
    stdin.resume();
  });
}

function checked(password: string): string {
  if (password === "") throw new BwError("INVALID_ARGUMENT", "the password is empty");
  if (password.length > VAULT_LIMITS.passwordChars) {
    throw new BwError("INVALID_ARGUMENT", `the password is longer than ${VAULT_LIMITS.passwordChars} characters`);
  }
  return password;
}

/** Piped stdin (one trailing newline dropped) or a hidden prompt asked twice. */
export async function readPassword(what: string): Promise<string> {
  if (!process.stdin.isTTY) {
    return checked((await text(process.stdin)).replace(/\r?\n$/, ""));
  }
  const first = checked(await promptHidden(`${what}: `));
  const again = await promptHidden(`${what} (again): `);
  if (again !== first) throw new BwError("INVALID_ARGUMENT", "the two passwords differ; nothing was saved");
  return first;
}

/** A password flag on the command line is refused before anything else happens, and not echoed. */
export function refusePasswordFlag(args: { password?: unknown }): void {
  if (args.password !== undefined) {
    throw new BwError("INVALID_ARGUMENT", "passwords are never taken from the command line (other users can read it); pipe the password on stdin or type it at the prompt");
  }
}
