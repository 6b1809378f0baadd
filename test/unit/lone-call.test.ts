// Which snippets run as one page call without a realm. Anything that holds
// code of its own (a second statement, an identifier, a comment, a function,
// a computed member, a newline after `return`) must not be taken for one.
import { describe, expect, it } from "vitest";
import { loneCall, loneCallMessage, loneCallResult } from "../../daemon/browser-worker/facades/lone-call.js";

describe("lone-call snippets", () => {
  it("takes one page or locator call with JSON arguments, in each form the compiler reads the same way", () => {
    for (const code of ["return page.title()", "page.title()", "page.title();", "await page.title()", "return await page.title();", "  \n\treturn page.title()  \n"]) {
      expect(loneCall(code), code).toEqual({ target: "page", steps: [], method: "title", args: [] });
    }
    expect(loneCall('return page.locator("#t").first().textContent({ "timeout": 100 })')).toEqual({
      target: "locator",
      steps: [{ m: "locator", a: ["#t"] }, { m: "first", a: [] }],
      method: "textContent",
      args: [{ timeout: 100 }],
    });
    expect(loneCall('page.getByRole("button", {"name": "Go (now)"}).click()')?.steps).toEqual([{ m: "getByRole", a: ["button", { name: "Go (now)" }] }]);
    expect(loneCall('page.fill("#q", "a \\" ) quote")')?.args).toEqual(["#q", 'a " ) quote']);
  });

  it("leaves everything else to the realm", () => {
    const notLone = [
      "", "page", "page.title", "return page", "page.title(); page.title()", "page.title() && process", "page.title()\nprocess.exit()",
      "return\npage.title()", "return page.title() // note", "/* x */ page.title()", "page['title']()", "page .title()", "page?.title()",
      "page.t\\u0069tle()", "pagex.title()", "returnpage.title()", "awaitpage.title()", "page.title.call(page)", "page.constructor('x')()",
      "page.locator('#t').textContent()", "page.locator(selector).count()", "page.goto(\"http://x\")",
      "page.locator(\"a\").allTextContents()", "page.frameLocator(\"f\").locator(\"a\").click()", "page.mainFrame().title()",
      "page.locator(\"a\").nosuch()", "page.nosuch()", "page.title(1)(2)", "page.title()()", "page.locator(\"a\"),process", "page.title(\"a\")x",
      "page.fill(\"#q\", \"unterminated)", "page.fill(\"#q\", 1, ) ", "page.title(`x`)", "page.keyboard.press(\"a\")", "(page.title())",
      "state.title()", "return page.title()".padEnd(5000, " "),
    ];
    for (const code of notLone) expect(loneCall(code), JSON.stringify(code)).toBeUndefined();
  });

  it("takes evaluate with an arrow function, as the realm's toString() of it gives the text, and JSON after it", () => {
    const fn = (code: string) => {
      const call = loneCall(code);
      return call && { method: call.method, args: call.args };
    };
    expect(fn("return page.evaluate(() => document.title)")).toEqual({ method: "evaluate", args: [{ __bwFn: "() => document.title" }] });
    const body = `async (a, { b }) =>  { return [a, b, "x)", 'y,'] }`;
    expect(fn(`page.evaluate( ${body} , 2, {"b": 3});`)).toEqual({ method: "evaluate", args: [{ __bwFn: body }, 2, { b: 3 }] });
    expect(fn("await page.evaluate(n =>\n  n + 1, 41)")).toEqual({ method: "evaluate", args: [{ __bwFn: "n =>\n  n + 1" }, 41] });
    expect(loneCall('return page.locator("li").evaluateAll(els => els.length)')).toEqual({
      target: "locator", steps: [{ m: "locator", a: ["li"] }], method: "evaluateAll", args: [{ __bwFn: "els => els.length" }],
    });
    // What the realm sends for the same call is the function's own toString().
    const arrow = ((a: number, { b }: { b: number }) => a + b).toString();
    expect(fn(`page.evaluate(${arrow}, 1, {"b": 2})`)?.args[0]).toEqual({ __bwFn: arrow });
  });

  it("leaves evaluate to the realm when its function is anything but one arrow function, or its arguments not JSON", () => {
    const notLone = [
      "page.evaluate(function () { return 1 })", "page.evaluate(function () { return 1 }())", "page.evaluate(fn)", "page.evaluate(\"document.title\")",
      "page.evaluate((() => 1) + x)", "page.evaluate(() => {} + 1)", "page.evaluate(() => {}(1))", "page.evaluate((a)\n=> a)",
      "page.evaluate(() => 1 // c\n)", "page.evaluate(() => /x/.test(document.title))", "page.evaluate(() => 4 / 2)", "page.evaluate(() => `t`)",
      "page.evaluate(() => x, y)", "page.evaluate(() => x, {a: 1})", "page.evaluate(() => x, 1, )", "page.evaluate(() => x,)", "page.evaluate(() => (x)",
      "page.evaluate(() => x))", "page.evaluate(() => [x)]", "page.evaluate(a b => 1)", "page.evaluate((a b) => 1)", "page.evaluate(() => 'a\nb')",
      "page.evaluate(() => \\u0061)", "page.evaluate(async\n() => 1)", "page.evaluate(() => 1).then(x)", "page.evaluate(() => 1); process",
      "page.evaluate(() => 1) + 1", "page.evaluateHandle(() => document)", "page.waitForFunction(() => true)", "page.$eval(\"a\", (e) => e.id)",
      "page.evaluate(() => { while (true) {} }, state)", "page.evaluate(() => 1, () => 2)", "page.evaluate(x => x, ...[1])",
    ];
    for (const code of notLone) expect(loneCall(code), JSON.stringify(code)).toBeUndefined();
  });

  it("hands back what evaluate returns bounded as the realm bounds a returned value", () => {
    let deep: unknown = "end";
    for (let i = 0; i < 25; i++) deep = { d: deep };
    let bounded = loneCallResult(deep) as Record<string, unknown>;
    for (let i = 0; i < 21; i++) bounded = bounded.d as Record<string, unknown>;
    expect(bounded).toBe("[MaxDepth]");
    expect((loneCallResult(Array.from({ length: 10005 }, (_, i) => i)) as unknown[]).length).toBe(10000);
    const proto = loneCallResult(JSON.parse('{"__proto__": {"polluted": 1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(["__proto__"]);
    expect(loneCallResult({ a: [1, { b: null }], c: "x" })).toEqual({ a: [1, { b: null }], c: "x" });
  });

  it("makes the message the realm's facade makes, and hands back the value as a realm would see it", () => {
    const page = loneCall("page.title()")!;
    expect(loneCallMessage(page, "p1", "tok")).toEqual({ target: "page", pageId: "p1", ask: "call", token: "tok", method: "title", args: [] });
    const locator = loneCall('page.locator("#t").count()')!;
    expect(loneCallMessage(locator, "p2", "tok")).toEqual({ target: "locator", pageId: "p2", frameId: null, steps: [{ m: "locator", a: ["#t"] }], ask: "call", token: "tok", method: "count", args: [] });
    expect([loneCallResult(undefined), loneCallResult("x"), loneCallResult(3), loneCallResult(false), loneCallResult(null)]).toEqual([null, "x", 3, false, null]);
  });
});
