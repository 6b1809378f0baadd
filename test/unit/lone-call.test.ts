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
      "page.locator('#t').textContent()", "page.locator(selector).count()", "page.evaluate(() => document.title)", "page.goto(\"http://x\")",
      "page.locator(\"a\").allTextContents()", "page.frameLocator(\"f\").locator(\"a\").click()", "page.mainFrame().title()",
      "page.locator(\"a\").nosuch()", "page.nosuch()", "page.title(1)(2)", "page.title()()", "page.locator(\"a\"),process", "page.title(\"a\")x",
      "page.fill(\"#q\", \"unterminated)", "page.fill(\"#q\", 1, ) ", "page.title(`x`)", "page.keyboard.press(\"a\")", "(page.title())",
      "state.title()", "return page.title()".padEnd(5000, " "),
    ];
    for (const code of notLone) expect(loneCall(code), JSON.stringify(code)).toBeUndefined();
  });

  it("makes the message the realm's facade makes, and hands back the value as a realm would see it", () => {
    const page = loneCall("page.title()")!;
    expect(loneCallMessage(page, "p1", "tok")).toEqual({ target: "page", pageId: "p1", ask: "call", token: "tok", method: "title", args: [] });
    const locator = loneCall('page.locator("#t").count()')!;
    expect(loneCallMessage(locator, "p2", "tok")).toEqual({ target: "locator", pageId: "p2", frameId: null, steps: [{ m: "locator", a: ["#t"] }], ask: "call", token: "tok", method: "count", args: [] });
    expect([loneCallResult(undefined), loneCallResult("x"), loneCallResult(3), loneCallResult(false), loneCallResult(null)]).toEqual([null, "x", 3, false, null]);
  });
});
