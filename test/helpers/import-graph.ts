// Every way a source file loads another, read from its syntax tree (vite's
// parseAst, TypeScript): static imports and re-exports (type-only ones too),
// `import()`, `require()`, and the functions `createRequire` makes, called at
// once or through a name bound to one. A call whose target is not a string
// literal cannot be followed: it is kept with no target, for the boundary test
// to refuse. The graph resolves relative targets to source files, so it can be
// walked transitively.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseAst } from "vite";

export type ImportKind = "static" | "type" | "dynamic" | "require";

export interface ImportRef {
  kind: ImportKind;
  /** The target as written; undefined when it is not a string literal. */
  spec: string | undefined;
}

export interface Edge {
  from: string;
  /** A source file relative to the root (for a relative target), else the package or built-in as written. */
  to: string;
  kind: ImportKind;
}

export interface ImportGraph {
  edges: Edge[];
  /** Loads whose target is not a string literal. */
  opaque: { from: string; kind: ImportKind }[];
}

type Node = { type: string; [key: string]: unknown };

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && typeof (value as Node).type === "string";

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) out.push(...value.filter(isNode));
    else if (isNode(value)) out.push(value);
  }
  return out;
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of children(node)) walk(child, visit);
}

/** The string a node stands for when it is a literal (a template without substitutions counts). */
function literal(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0) {
    return ((node.quasis as { value: { cooked: string } }[])[0])?.value.cooked;
  }
  return undefined;
}

const nameOf = (node: unknown): string | undefined => (isNode(node) && node.type === "Identifier" ? (node.name as string) : undefined);

export function scanImports(source: string): ImportRef[] {
  const program = parseAst(source, { lang: "ts" }) as unknown as Node;
  // Names `createRequire` is known by (an aliased import), and names bound to a function it made.
  const makers = new Set(["createRequire"]);
  const requires = new Set(["require"]);
  walk(program, (node) => {
    if (node.type === "ImportDeclaration" && /^(node:)?module$/.test(literal(node.source) ?? "")) {
      for (const s of node.specifiers as Node[]) {
        if (s.type === "ImportSpecifier" && (nameOf(s.imported) ?? literal(s.imported)) === "createRequire") makers.add(nameOf(s.local)!);
      }
    }
  });
  const isMaker = (callee: unknown): boolean =>
    isNode(callee) && ((callee.type === "Identifier" && makers.has(callee.name as string)) ||
      (callee.type === "MemberExpression" && nameOf(callee.property) === "createRequire"));
  walk(program, (node) => {
    if (node.type === "VariableDeclarator" && isNode(node.init) && node.init.type === "CallExpression" && isMaker(node.init.callee)) {
      const name = nameOf(node.id);
      if (name) requires.add(name);
    }
  });

  const refs: ImportRef[] = [];
  walk(program, (node) => {
    switch (node.type) {
      case "ImportDeclaration":
        refs.push({ kind: node.importKind === "type" ? "type" : "static", spec: literal(node.source) });
        break;
      case "ExportNamedDeclaration":
      case "ExportAllDeclaration":
        if (node.source) refs.push({ kind: node.exportKind === "type" ? "type" : "static", spec: literal(node.source) });
        break;
      case "TSImportType":
        refs.push({ kind: "type", spec: literal(node.source ?? (node.argument as Node | undefined)?.literal) });
        break;
      case "ImportExpression":
        refs.push({ kind: "dynamic", spec: literal(node.source) });
        break;
      case "CallExpression": {
        const callee = node.callee as Node;
        const viaName = callee.type === "Identifier" && requires.has(callee.name as string);
        const direct = callee.type === "CallExpression" && isMaker(callee.callee);
        if (viaName || direct) refs.push({ kind: "require", spec: literal((node.arguments as Node[])[0]) });
        break;
      }
    }
  });
  return refs;
}

/** The source file a relative target names, among `files` (TypeScript's `.js` for `.ts`, a folder's index). */
function resolve(from: string, spec: string, files: ReadonlySet<string>): string {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  const candidates = [target, target.replace(/\.js$/, ".ts"), `${target}.ts`, `${target}/index.ts`];
  return candidates.find((c) => files.has(c)) ?? target;
}

/** The graph of `sources` (path relative to the root → text). */
export function graphOf(sources: ReadonlyMap<string, string>): ImportGraph {
  const files = new Set(sources.keys());
  const graph: ImportGraph = { edges: [], opaque: [] };
  for (const [from, text] of sources) {
    for (const { kind, spec } of scanImports(text)) {
      if (spec === undefined) graph.opaque.push({ from, kind });
      else graph.edges.push({ from, to: spec.startsWith(".") ? resolve(from, spec, files) : spec, kind });
    }
  }
  return graph;
}

/** Every `.ts` file under `dirs` of `root`, read. */
export function readSources(root: string, dirs: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) visit(rel);
      else if (entry.name.endsWith(".ts")) sources.set(rel, readFileSync(path.join(root, rel), "utf8"));
    }
  };
  for (const dir of dirs) visit(dir);
  return sources;
}

/**
 * What each file reaches through the graph's edges, `follow` deciding which edges are taken. A type-only
 * import reaches its file but loads nothing, so what that file imports is not reached through it.
 */
export function reachability(graph: ImportGraph, follow: (edge: Edge) => boolean = () => true): (from: string) => Set<string> {
  const out = new Map<string, Edge[]>();
  for (const edge of graph.edges) if (follow(edge)) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  return (from) => {
    const reached = new Set<string>();
    const loaded = new Set([from]);
    const queue = [from];
    while (queue.length > 0) {
      for (const edge of out.get(queue.shift()!) ?? []) {
        reached.add(edge.to);
        if (edge.kind === "type" || loaded.has(edge.to)) continue;
        loaded.add(edge.to);
        queue.push(edge.to);
      }
    }
    return reached;
  };
}

/**
 * The import circles among the files `inside` accepts: each a strongly connected set of files (Tarjan),
 * sorted, every kind of edge counted (a type-only import still ties the two files' designs together).
 */
export function importCircles(graph: ImportGraph, inside: (file: string) => boolean): string[][] {
  const out = new Map<string, Set<string>>();
  for (const { from, to } of graph.edges) {
    if (!inside(from) || !inside(to)) continue;
    const targets = out.get(from) ?? new Set<string>();
    targets.add(to);
    out.set(from, targets);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of out.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1 || out.get(file)?.has(file)) circles.push(members.sort());
  };
  for (const file of [...out.keys()].sort()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Whether a source reads `process.env` (`process.env`, `process["env"]`), comments and strings aside. */
export function readsProcessEnv(source: string): boolean {
  let found = false;
  walk(parseAst(source, { lang: "ts" }) as unknown as Node, (node) => {
    if (node.type !== "MemberExpression" || nameOf(node.object) !== "process") return;
    if ((node.computed ? literal(node.property) : nameOf(node.property)) === "env") found = true;
  });
  return found;
}
