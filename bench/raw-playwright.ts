// The raw-Playwright baseline for a cold call: launch, navigate, read the title, close.
import { chromium } from "playwright-core";

const [executablePath, url] = process.argv.slice(2) as [string, string];
const browser = await chromium.launch({ executablePath, headless: true });
const page = await browser.newPage();
await page.goto(url);
process.stdout.write(`${JSON.stringify(await page.title())}\n`);
await browser.close();
