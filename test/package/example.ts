// What a project that depends on betterwright writes, type-checked against the
// packed package's declarations alone (no @types/node of its own, skipLibCheck off).
import { BetterWright, BwError, type Envelope } from "betterwright";

function describe(envelope: Envelope): string {
  if (envelope.ok) return `ok: ${JSON.stringify(envelope.result)}`;
  // Narrowed: a failed envelope always has its error.
  return `${envelope.error.code}: ${envelope.error.message}`;
}

export async function title(url: string): Promise<string> {
  const bw = new BetterWright({ headless: true });
  try {
    const envelope = await bw.run("await page.goto(args.url); return page.title()", { session: "example", args: { url } });
    return describe(envelope);
  } catch (error) {
    if (error instanceof BwError) return `${error.code}: ${error.message}`;
    throw error;
  } finally {
    await bw.close();
  }
}
