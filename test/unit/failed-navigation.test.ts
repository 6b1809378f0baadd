// Which failed navigations leave Chromium's error page (and are waited for): every net error but an abort.
import { describe, expect, it } from "vitest";
import { leavesErrorPage } from "../../daemon/browser-worker/playwright-errors.js";

describe("leavesErrorPage", () => {
  it.each([
    ["page.goto: net::ERR_BLOCKED_BY_CLIENT at http://a.test/", true],
    ["page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/", true],
    ["page.goto: net::ERR_TUNNEL_CONNECTION_FAILED at https://a.test/", true],
    ["page.goto: net::ERR_NAME_NOT_RESOLVED at http://nowhere.test/", true],
    ["page.goto: net::ERR_ABORTED at http://a.test/file.zip", false],
    ["page.goto: Download is starting", false],
    ["page.goto: Timeout 30000ms exceeded.", false],
    ['page.goto: Navigation to "http://a.test/" is interrupted by another navigation to "http://b.test/"', false],
  ])("%s → %s", (message, expected) => {
    expect(leavesErrorPage(message)).toBe(expected);
  });
});
