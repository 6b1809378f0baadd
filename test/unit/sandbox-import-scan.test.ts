// The fallback guard against dynamic import() (used when the runtime would
// reject it with a host-realm error): every real import( is found, whatever
// whitespace or comments sit between the keyword and the parenthesis.
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { mentionsDynamicImport } from "../../daemon/browser-worker/realm/compile.js";

/** Whether V8 itself performs a dynamic import when running `code` (with or without --experimental-vm-modules). */
async function v8SeesImport(code: string): Promise<boolean> {
  let asked = false;
  const script = new vm.Script(`(async () => { ${code} })`, { importModuleDynamically: (() => { asked = true; return Promise.reject(new Error("no")); }) as never });
  const fn = script.runInNewContext({ x: 0 }) as () => Promise<unknown>;
  const error = await fn().then(() => undefined, (e: unknown) => e);
  return asked || String((error as { code?: unknown } | undefined)?.code ?? "").startsWith("ERR_VM_DYNAMIC_IMPORT");
}

describe("mentionsDynamicImport", () => {
  // Awaited, so that V8's own verdict (a rejection) reaches the comparison below.
  const real = [
    "await import('fs')",
    "await import ( 'fs' )",
    "await import/* c */('fs')",
    "await import // c\n('fs')",
    "await import\n<!-- html comment\n('fs')",
    "await import\n--> html close comment\n('fs')",
    "await import\u00a0\u2028\ufeff('fs')",
    "x = 1;await(import('fs'))",
    "await Promise.all([import('fs')])",
  ];
  it.each(real)("finds %j", (code) => {
    expect(mentionsDynamicImport(code)).toBe(true);
  });

  const notImports = ["x.import('fs')", "important('x')", "reimport('x')", "const importer = 1; importer('x')", "$import('x')", "import_('x')", "return 'no call here'"];
  it.each(notImports)("lets %j through", (code) => {
    expect(mentionsDynamicImport(code)).toBe(false);
  });

  it("agrees with V8 on every case that parses", async () => {
    for (const code of [...real, ...notImports]) {
      let parses = true;
      try { new vm.Script(`(async () => { ${code} })`); } catch { parses = false; }
      if (!parses) continue;
      expect(await v8SeesImport(code), code).toBe(mentionsDynamicImport(code));
    }
  });
});
