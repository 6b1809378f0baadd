// Files under a folder that hold any of some secrets in clear: what a test
// checks the home for after a login went through it.
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** `skip`: folders not looked into (Chromium's own profile, say). */
export function filesHolding(dir: string, secrets: string[], skip: (folder: string) => boolean = () => false): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const info = lstatSync(file);
    if (info.isDirectory()) {
      if (!skip(file)) found.push(...filesHolding(file, secrets, skip));
    } else if (info.isFile()) {
      const text = readFileSync(file);
      if (secrets.some((s) => text.includes(s))) found.push(file);
    }
  }
  return found;
}
