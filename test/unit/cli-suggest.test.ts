import { describe, expect, it } from "vitest";
import { closest, editDistance } from "../../cli/suggest.js";
import { usageMessage } from "../../cli/usage-errors.js";

describe("did you mean", () => {
  it("counts a swap of neighbours as one edit", () => {
    expect(editDistance("exce", "exec")).toBe(1);
    expect(editDistance("sesion", "session")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("guesses only when the guess is close, or the word begins a candidate", () => {
    const commands = ["exec", "run", "repl", "sessions", "session", "snapshot", "scroll", "screenshot"];
    expect(closest("exce", commands)).toBe("exec");
    expect(closest("snapsht", commands)).toBe("snapshot");
    expect(closest("scree", commands)).toBe("screenshot");
    expect(closest("xyzzy", commands)).toBeUndefined();
    expect(closest("", commands)).toBeUndefined();
  });

  it("says an unknown command once, even when its flags looked unknown too", () => {
    const context = { argv: ["exce", "-c", "1"], commandPath: [], commands: ["exec", "repl"], options: ["json", "profile"] };
    expect(usageMessage("Unknown arguments: c, exce", context)).toBe("Unknown command 'exce'. Did you mean 'exec'?");
    const flags = { argv: ["snapshot", "--max-char", "3", "-z"], commandPath: ["snapshot"], commands: [], options: ["max-chars", "maxChars", "x", "y"] };
    expect(usageMessage("Unknown arguments: max-char, maxChar, z", flags)).toBe("Unknown flag '--max-char' for snapshot. Did you mean '--max-chars'?; Unknown flag '-z' for snapshot (betterwright snapshot --help lists them)");
    expect(usageMessage("Not enough arguments", flags)).toBe("Not enough arguments");
  });
});
