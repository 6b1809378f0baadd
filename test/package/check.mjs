// The package as a user gets it: packs the repository, checks what the
// tarball holds, installs it into an empty project (its dependencies from the
// registry, no dev dependencies), and runs the command through npx, one
// library call and a type check of example.ts against the installed
// declarations. Run by .ci/run after the build; needs the npm registry.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { version } = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8"));
const work = mkdtempSync(path.join(tmpdir(), "bw-package-"));
const project = path.join(work, "project");
const home = path.join(work, "home");
const env = { ...process.env, HOME: path.join(work, "user"), BETTERWRIGHT_HOME: home, npm_config_update_notifier: "false" };
for (const key of Object.keys(env)) if (key.startsWith("BETTERWRIGHT_") && key !== "BETTERWRIGHT_HOME") delete env[key];

function run(file, args, options = {}) {
  return execFileSync(file, args, { cwd: project, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
}

function check(what, ok, detail = "") {
  if (!ok) throw new Error(`package check failed: ${what}${detail ? `\n${detail}` : ""}`);
  console.log(`ok - ${what}`);
}

try {
  mkdirSync(project);
  mkdirSync(env.HOME, { mode: 0o700 });
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work, repo]));
  const files = packed.files.map((f) => f.path);
  check("the tarball holds the LICENSE, the README, the command, the library and its declarations",
    ["LICENSE", "README.md", "package.json", "dist/bin/betterwright.js", "dist/client/index.js", "dist/client/index.d.ts"].every((f) => files.includes(f)));
  const extra = files.filter((f) => f.endsWith(".map") || f.startsWith("dist/bench/") || f.startsWith("test/") || /\.ts$/.test(f) && !f.endsWith(".d.ts"));
  check(`nothing but what runs (${files.length} files, ${packed.size} bytes)`, extra.length === 0, extra.slice(0, 20).join("\n"));

  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "bw-package-check", private: true, type: "module" }, null, 2));
  const tarball = path.join(work, packed.filename);
  const installing = spawnSync("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: project, env, encoding: "utf8" });
  const install = `${installing.stdout}${installing.stderr}`;
  check("npm install succeeds", installing.status === 0, install);
  const installed = JSON.parse(readFileSync(path.join(project, "node_modules/betterwright/package.json"), "utf8"));
  check("the installed package.json has no install-time scripts", !["prepare", "preinstall", "install", "postinstall"].some((s) => installed.scripts?.[s]));
  check("npm install printed nothing about betterwright", !/betterwright/i.test(install), install);

  // A global install (into a prefix of our own, as an ordinary user would with ~/.local) puts the command on PATH.
  const prefix = path.join(work, "global");
  const global = spawnSync("npm", ["install", "--global", "--prefix", prefix, "--no-audit", "--no-fund", tarball], { cwd: work, env, encoding: "utf8" });
  check("npm install --global succeeds, printing nothing about betterwright", global.status === 0 && !/betterwright/i.test(global.stdout + global.stderr), global.stdout + global.stderr);
  const onPath = run("betterwright", ["--version"], { env: { ...env, PATH: `${path.join(prefix, "bin")}${path.delimiter}${env.PATH}` } }).trim();
  check(`betterwright --version from the global install prints ${version}`, onPath === version, onPath);

  const printed = run("npx", ["--no-install", "betterwright", "--version"]).trim();
  check(`npx betterwright --version prints ${version}`, printed === version, printed);

  const page = "data:text/html,<title>Packed</title>";
  try {
    const exec = JSON.parse(run("npx", ["--no-install", "betterwright", "exec", "--session", "packed", "-c", `await page.goto(${JSON.stringify(page)}); return page.title()`]));
    check("npx betterwright exec loads a page", exec.ok === true && exec.result === "Packed", JSON.stringify(exec));
    const library = `
      import { BetterWright } from "betterwright";
      const bw = new BetterWright();
      const envelope = await bw.run("return page.title()", { session: "packed" });
      await bw.close();
      process.stdout.write(JSON.stringify(envelope));`;
    const fromLibrary = JSON.parse(run(process.execPath, ["--input-type=module", "-e", library]));
    check("the library finds the same session", fromLibrary.ok === true && fromLibrary.result === "Packed", JSON.stringify(fromLibrary));
  } finally {
    run("npx", ["--no-install", "betterwright", "close", "--all"]);
  }

  for (const name of ["example.ts", "tsconfig.json"]) copyFileSync(path.join(repo, "test/package", name), path.join(project, name));
  try {
    run(process.execPath, [path.join(repo, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"]);
    check("example.ts type-checks against the installed declarations, without @types/node of its own", true);
  } catch (error) {
    check("example.ts type-checks against the installed declarations, without @types/node of its own", false, `${error.stdout ?? ""}${error.stderr ?? ""}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
