// Widgets of real component libraries (MUI, Radix UI, rc-cascader, Lit,
// TanStack Virtual, SortableJS) and the plain page furniture agents meet
// (cookie banner, iframe of another origin, popup, upload, JS dialogs), driven
// as an agent drives them: typed operations only, a snapshot first, refs
// picked from its text, then the action, then a read or a snapshot to see it
// took. The fixture app is bundled once, in memory, from test/e2e/fixtures/widgets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startWidgetApp, type WidgetApp } from "../helpers/widget-app.js";

describe("real widgets, by typed operations", () => {
  let home: string;
  let app: WidgetApp;
  let bw: BetterWright;
  const session = "widgets";

  const op = async (name: string, args: Record<string, unknown> = {}): Promise<any> => {
    const envelope = await bw.op(name as never, args as never, { session });
    expect(envelope, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`).toMatchObject({ ok: true });
    return envelope.result;
  };
  /** The same through the CLI verb, as the recipes of docs/operations.md spell it. */
  const verb = async (...words: string[]): Promise<any> => {
    const r = await runCli([...words, "--session", session, "--json"], { home });
    expect(r.json, `${words.join(" ")}: exit ${r.code}: ${r.stdout.slice(0, 500)} ${r.stderr.slice(0, 500)}`).toMatchObject({ ok: true });
    return r.json.result;
  };
  const snapshot = async (): Promise<string> => (await op("snapshot")).text;
  /** The ref on the first line of `text` that holds `needle`, as an agent would read it off. */
  const refOf = (text: string, needle: string): string => {
    const found = /\[((?:f\d+)?e\d+)\]/.exec(text.split("\n").find((line) => line.includes(needle)) ?? "")?.[1];
    if (!found) throw new Error(`no ref on a line with ${needle} in:\n${text}`);
    return found;
  };
  /** The ref of a table cell in a compact row line (`row [e51]: 1 [e52] | 2 [e53]`). */
  const cellRef = (text: string, cell: string): string => {
    const found = new RegExp(`(?:: | \\| )${cell} \\[((?:f\\d+)?e\\d+)\\]`).exec(text)?.[1];
    if (!found) throw new Error(`no cell ${cell} with a ref in:\n${text}`);
    return found;
  };
  const result = async (): Promise<string | undefined> => /Result: [^\n]*/.exec((await op("read")).text)?.[0];
  const open = async (path: string) => op("navigate", { url: `${app.url}${path}` });

  beforeAll(async () => {
    home = tempHome();
    app = await startWidgetApp();
    bw = new BetterWright({ home, env: cleanEnv(home) });
  });

  afterAll(async () => {
    await bw?.close();
    await destroyHome(home);
    await app?.close();
  });

  describe("MUI", () => {
    it("picks an option of a select drawn as a combobox and a menu", async () => {
      await open("/mui/select");
      await op("click", { target: refOf(await snapshot(), 'combobox "Plan"') });
      await op("click", { target: refOf(await snapshot(), 'option "Team"') });
      expect(await result()).toBe("Result: team");
    });

    it("picks a day in a date picker's calendar", async () => {
      await open("/mui/date-picker");
      await op("click", { target: refOf(await snapshot(), 'button "Choose date') });
      const calendar = await snapshot();
      expect(calendar).toContain("May 2031");
      await op("click", { target: cellRef(calendar, "15") });
      expect(await result()).toBe("Result: 2031-05-15");
    });

    it("answers a modal dialog", async () => {
      await open("/mui/modal");
      await op("click", { target: refOf(await snapshot(), 'button "Delete project"') });
      const modal = await snapshot();
      expect(modal).toContain('dialog "Delete project \\"Apollo\\"?"');
      await op("click", { target: refOf(modal, 'button "Delete" [') });
      expect(await result()).toBe("Result: deleted");
      // MUI fades a dialog out: wait until it is gone, as an agent would.
      await op("wait_for", { textGone: "This removes its 12 deployments." });
      expect(await snapshot()).not.toContain("dialog");
    });

    it("pages through a table", async () => {
      await open("/mui/table");
      const first = await snapshot();
      expect(first).toContain("INV-1001");
      await op("click", { target: refOf(first, 'button "Go to next page"') });
      await op("click", { target: refOf(await snapshot(), 'button "Go to next page"') });
      const third = (await op("read")).text as string;
      expect(third).toContain("INV-1021");
      expect(third).not.toContain("INV-1001");
      expect(third).toMatch(/21.30 of 53/);
    });

    it("switches tabs", async () => {
      await open("/mui/tabs");
      await op("click", { target: refOf(await snapshot(), 'tab "Billing"') });
      expect((await op("read")).text).toContain("Card ending 4242");
      expect(await snapshot()).toMatch(/tab "Billing"[^\n]*selected/);
    });

    it("turns a switch on and off", async () => {
      await open("/mui/switch");
      const ref = refOf(await snapshot(), 'switch "Email notifications"');
      await op("check", { target: ref });
      expect(await result()).toBe("Result: notifications on");
      await op("uncheck", { target: refOf(await snapshot(), 'switch "Email notifications"') });
      expect(await result()).toBe("Result: notifications off");
    });

    it("types into an autocomplete combobox and picks a suggestion", async () => {
      await open("/mui/combobox");
      await op("fill", { target: refOf(await snapshot(), 'combobox "Country"'), value: "ne" });
      const suggestions = await snapshot();
      expect(suggestions).toContain('option "Nepal"');
      expect(suggestions).not.toContain('option "Norway"');
      await op("click", { target: refOf(suggestions, 'option "Netherlands"') });
      expect(await result()).toBe("Result: Netherlands");
    });
  });

  describe("Radix UI", () => {
    it("fills and saves a form in a dialog", async () => {
      await open("/radix/dialog");
      await op("click", { target: refOf(await snapshot(), 'button "Edit profile"') });
      const dialog = await snapshot();
      expect(dialog).toContain('dialog "Edit profile"');
      await op("fill", { target: refOf(dialog, 'textbox "Display name"'), value: "Grace" });
      await op("click", { target: refOf(dialog, 'button "Save changes"') });
      expect(await result()).toBe("Result: Grace");
      await op("wait_for", { textGone: "Change how others see you." });
      expect(await snapshot()).not.toContain("dialog");
    });

    it("picks an option of a listbox", async () => {
      await open("/radix/listbox");
      await op("click", { target: refOf(await snapshot(), 'combobox "Fruit"') });
      const listbox = await snapshot();
      expect(listbox).toContain("listbox");
      await op("click", { target: refOf(listbox, 'option "Blueberry"') });
      expect(await result()).toBe("Result: blueberry");
    });
  });

  it("walks a cascader (Ant Design's) from region to country to city", async () => {
    await open("/cascader/cascader");
    await op("click", { target: refOf(await snapshot(), 'combobox "Ship to"') });
    await op("click", { target: refOf(await snapshot(), 'menuitemcheckbox "Europe') });
    await op("click", { target: refOf(await snapshot(), 'menuitemcheckbox "Germany') });
    await op("click", { target: refOf(await snapshot(), 'menuitemcheckbox "Berlin') });
    expect(await result()).toBe("Result: europe / germany / berlin");
  });

  it("fills and submits a search box inside a Lit component's shadow root", async () => {
    await open("/lit.html");
    const page = await snapshot();
    await op("fill", { target: refOf(page, 'searchbox "Search docs"'), value: "refs" });
    await op("click", { target: refOf(page, 'button "Search"') });
    expect(await result()).toBe("Result: searched refs");
    expect(await snapshot()).toContain('3 results for "refs"');
  });

  it("checks a Lit checkbox drawn over a hidden input in its shadow root, by ref and by role and name", async () => {
    await open("/lit.html");
    const terms = 'checkbox "I accept the terms and conditions"';
    await op("check", { target: refOf(await snapshot(), terms) });
    expect(await result()).toBe("Result: terms accepted");
    expect(await snapshot()).toMatch(/checkbox "I accept the terms and conditions"[^\n]*checked/);
    await op("uncheck", { target: { role: "checkbox", name: "I accept the terms and conditions" } });
    expect(await result()).toBe("Result: terms not accepted");
  });


  it("reaches the last of 10,000 virtualized rows by scrolling the list, then clicks it", async () => {
    await open("/virtual/list");
    const top = await snapshot();
    expect(top).toContain('button "Order 1"');
    expect((await op("find", { query: "Order 10000" })).count).toBe(0);
    await verb("scroll", refOf(top, 'list "Orders"'), "--dy", "1000000");
    // The list draws the rows now in view a moment after it scrolled.
    await verb("wait_for", "--text", "Order 10000");
    const found = await verb("find", '"Order 10000"');
    expect(found.count).toBe(1);
    await verb("click", refOf(found.matches[0], "Order 10000"));
    expect(await result()).toBe("Result: order 10000");
  });

  it("reorders a SortableJS list by dragging items by their handles, up and down", async () => {
    await open("/sortable.html");
    expect(await result()).toBe("Result: Write tests, Fix login, Ship release, Update docs");
    const board = await snapshot();
    await verb("drag", refOf(board, 'button "Move Update docs"'), refOf(board, 'button "Move Ship release"'));
    expect(await result()).toBe("Result: Write tests, Fix login, Update docs, Ship release");
    const moved = await snapshot();
    await op("drag", { source: refOf(moved, 'button "Move Write tests"'), target: refOf(moved, 'button "Move Fix login"') });
    expect(await result()).toBe("Result: Fix login, Write tests, Update docs, Ship release");
  });

  it("drags a SortableJS item across several others, down to the last place and back up to the first", async () => {
    await open("/sortable.html");
    expect(await result()).toBe("Result: Write tests, Fix login, Ship release, Update docs");
    const board = await snapshot();
    await verb("drag", refOf(board, 'button "Move Write tests"'), refOf(board, 'button "Move Update docs"'));
    expect(await result()).toBe("Result: Fix login, Ship release, Update docs, Write tests");
    const moved = await snapshot();
    await op("drag", { source: refOf(moved, 'button "Move Write tests"'), target: refOf(moved, 'button "Move Fix login"') });
    expect(await result()).toBe("Result: Write tests, Fix login, Ship release, Update docs");
  });

  it("gets past a cookie banner, then clicks what it covered", async () => {
    await open("/cookie.html");
    const page = await snapshot();
    expect(page).toContain('dialog "Cookie consent"');
    await op("click", { target: refOf(page, 'button "Accept all"') });
    await op("click", { target: refOf(await snapshot(), 'button "Subscribe"') });
    expect(await result()).toBe("Result: subscribed");
  });

  it("says at once what covers a button under a cookie banner, and clicks nothing", async () => {
    await open("/cookie.html");
    const page = await snapshot();
    // A budget far above the short element wait: failing well inside it is the fast failure, not the budget's end.
    const envelope = await bw.op("click", { target: refOf(page, 'button "Subscribe"') }, { session, timeoutMs: 30_000 });
    expect(envelope).toMatchObject({ ok: false, error: { code: "ELEMENT_OBSCURED" } });
    expect(envelope.error!.message).toContain("cookie-banner");
    expect(envelope.durationMs).toBeLessThan(15_000);
    expect(await result()).toBe("Result: not subscribed");
  });

  it("fills and submits a form in an iframe of another origin", async () => {
    await open("/frame-host.html");
    const page = await snapshot();
    const field = refOf(page, 'textbox "Card holder"');
    expect(field).toMatch(/^f\d+e\d+$/);
    await op("fill", { target: field, value: "Ada Lovelace" });
    await op("click", { target: refOf(page, 'button "Pay now"') });
    expect(await snapshot()).toContain("Result: paid by Ada Lovelace");
  });

  it("follows a popup, acts in it, and closes it", async () => {
    await open("/popup.html");
    const opened = await op("action_and_wait", { waitFor: "popup", target: refOf(await snapshot(), 'button "Open help"') });
    expect(opened).toMatchObject({ event: "popup", pageId: expect.any(String) });
    await op("tabs", { action: "select", arg: opened.pageId });
    const help = await snapshot();
    expect(help).toContain("Help center");
    await op("click", { target: refOf(help, 'button "Contact support"') });
    expect(await result()).toBe("Result: ticket opened");
    const left = await op("tabs", { action: "close", arg: opened.pageId });
    expect(left.pages.map((p: { pageId: string }) => p.pageId)).not.toContain(opened.pageId);
  });

  it("uploads a file of the session's artifact folder through a file input", async () => {
    await open("/upload.html");
    const shot = await op("screenshot");
    const name = (shot.path as string).split("/").pop()!;
    await op("upload", { target: refOf(await snapshot(), 'button "Resume"'), files: [name] });
    expect(await result()).toBe(`Result: ${name} (${shot.bytes} bytes)`);
  });

  it("answers alert, confirm and prompt dialogs", async () => {
    await open("/dialogs.html");
    const page = await snapshot();
    const alerted = await op("action_and_wait", { waitFor: "dialog", target: refOf(page, 'button "Save"'), dialog: "accept" });
    expect(alerted).toMatchObject({ type: "alert", message: "Saved 3 files" });
    await verb("dialog", "accept");
    await op("click", { target: refOf(page, 'button "Delete"') });
    expect(await result()).toBe("Result: deleted");
    // Nothing armed: the confirm is dismissed, so the page never hangs on it.
    await op("click", { target: refOf(page, 'button "Delete"') });
    expect(await result()).toBe("Result: kept");
    await verb("action_and_wait", "dialog", refOf(page, 'button "Rename"'), "--dialog", "accept", "--prompt-text", "summary.pdf");
    expect(await result()).toBe("Result: renamed to summary.pdf");
  });
});
