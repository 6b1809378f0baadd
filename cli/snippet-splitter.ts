// Splitting a stream of text into snippets: a blank line ends a snippet,
// unless what came before does not parse yet and the following chunk may
// complete it (a function with blank lines inside, say).
import { snippetSyntaxError } from "../shared/snippet-source.js";

export class SnippetSplitter {
  private pending: string[] = [];
  private chunk: string[] = [];

  /** Feeds one line (without its newline); returns the snippets it completed. */
  line(text: string): string[] {
    if (text.trim() !== "") {
      this.chunk.push(text);
      return [];
    }
    if (this.chunk.length === 0) return [];
    const chunk = this.chunk.join("\n");
    this.chunk = [];
    const candidate = [...this.pending, chunk].join("\n\n");
    if (snippetSyntaxError(candidate) === undefined) {
      this.pending = [];
      return [candidate];
    }
    // The chunk stands on its own: what was pending is broken by itself and goes out as it is.
    if (this.pending.length > 0 && snippetSyntaxError(chunk) === undefined) {
      const broken = this.pending.join("\n\n");
      this.pending = [];
      return [broken, chunk];
    }
    this.pending.push(chunk);
    return [];
  }

  /** End of input: whatever is left is one last snippet (it may not parse; the daemon says so). */
  end(): string[] {
    if (this.chunk.length > 0) this.pending.push(this.chunk.join("\n"));
    this.chunk = [];
    const rest = this.pending.join("\n\n");
    this.pending = [];
    return rest.trim() === "" ? [] : [rest];
  }
}
