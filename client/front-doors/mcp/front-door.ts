// What one `betterwright mcp` process holds for all its connections: the
// library client of the profile's daemon (one socket connection, shared), the
// tools it serves, the labels it gave sessions and where screenshots are.
// Built only on the library's public API.
import type { BetterWright } from "../../index.js";
import { artifactDir, layoutFor } from "../../../shared/paths.js";
import type { ConnectionOptions } from "./connection.js";
import { LabelBook } from "./labels.js";
import type { Sdk } from "./sdk.js";
import type { ToolEntry } from "./tools.js";

export interface FrontDoorOptions {
  bw: BetterWright;
  sdk: Sdk;
  home: string;
  profile: string;
  tools: ToolEntry[];
  connection: ConnectionOptions;
  /** The largest screenshot returned as an image (the artifact store's screenshot cap). */
  maxImageBytes: number;
  /** Budget of a call that states none. */
  timeoutMs: number;
  versions: Record<string, string>;
  /** Send the server's instructions in the handshake (default true). */
  instructions?: boolean;
  /** A result too large for one reply: in parts read on with `more` (default), or its preview and the file's path on this machine. */
  largeResults?: "pages" | "files";
  /** How often a call in flight reports progress to a client that asked for it. */
  progressEveryMs?: number;
}

export class FrontDoor {
  readonly labels = new LabelBook();
  private readonly byName: Map<string, ToolEntry>;

  constructor(readonly options: FrontDoorOptions) {
    this.byName = new Map(options.tools.map((t) => [t.spec.name, t]));
  }

  get bw(): BetterWright {
    return this.options.bw;
  }

  get sdk(): Sdk {
    return this.options.sdk;
  }

  tool(name: string): ToolEntry | undefined {
    return this.byName.get(name);
  }

  /** The folder a session's screenshots must be in to be read back. */
  artifactDir(session: string): string {
    return artifactDir(layoutFor(this.options.home, this.options.profile), session);
  }
}
