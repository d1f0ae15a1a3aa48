// Drives pages of one headless Chromium that play together over WebRTC, for
// carts/gallery/tests/web_netplay.rs. The pages come from ORIGIN (`bt signal --site`, which
// serves the page and its rooms on one port); Chromium is driven through the DevTools protocol
// over a pipe, as drive.mjs does, and may open WebRTC connections on the loopback only.
//
//   node netdrive.mjs CHROMIUM ORIGIN PLAN.json RESULTS.json
//
// PLAN is a list of steps, each on one page ("page": 0, 1, ..., opened in that order); the result
// of each goes, as one JSON array, to RESULTS:
//   {"page": 0, "open": "index.html?room=t"}  load it and wait until `window.bt.ready`
//   {"page": 0, "open": "...", "refused": true}
//                                             load it and wait until it stops with an error,
//                                             which is the result: {"error": "..."}
//   {"page": 0, "eval": "expression"}         its value (promises awaited)
//   {"page": 0, "key": "ArrowDown", "down": true}
//                                             a real key event, as the keyboard sends it
//   {"wait_ms": 300}                          time passing
//   {"page": 0, "wait_for": "expression", "ms": 60000}
//                                             until it is true (at most "ms", 20 s unless
//                                             told), failing with the page's foot line
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

const [chromium, origin, planFile, resultsFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, "utf8"));
const LIMIT_MS = 20000;

const profile = mkdtempSync(join(tmpdir(), "bt-chromium-net-"));
const browser = spawn(chromium, [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
  `--user-data-dir=${profile}`, "--no-first-run", "--hide-scrollbars", "--mute-audio",
  "--autoplay-policy=no-user-gesture-required",
  // WebRTC between two pages of this machine: candidates on the loopback, by address (not
  // hidden behind mDNS names), and no page in the background slowed down.
  "--allow-loopback-in-peer-connection", "--disable-features=WebRtcHideLocalIpsWithMdns",
  "--force-webrtc-ip-handling-policy=default",
  "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
  "--disable-backgrounding-occluded-windows",
  "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let chromeErr = "";
browser.stderr.on("data", (d) => { chromeErr += d; });

// What the pages wrote to their consoles, the newest last: said with a failure.
const said = [];
let nextId = 1;
const waiting = new Map();
let buffered = Buffer.alloc(0);
browser.stdio[4].on("data", (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  let end;
  while ((end = buffered.indexOf(0)) >= 0) {
    const message = JSON.parse(buffered.subarray(0, end).toString("utf8"));
    buffered = buffered.subarray(end + 1);
    if (message.method === "Runtime.consoleAPICalled" || message.method === "Runtime.exceptionThrown") {
      const p = message.params;
      const text = p.args ? p.args.map((a) => a.value ?? a.description).join(" ")
        : p.exceptionDetails.exception?.description ?? p.exceptionDetails.text;
      said.push(`${message.sessionId === undefined ? "" : message.sessionId.slice(0, 6)} ${text}`);
    }
    const w = waiting.get(message.id);
    if (w) {
      waiting.delete(message.id);
      if (message.error) w.fail(new Error(`${w.method}: ${message.error.message}`));
      else w.ok(message.result);
    }
  }
});
function send(method, params = {}, sessionId = undefined) {
  const id = nextId++;
  const message = { id, method, params };
  if (sessionId) message.sessionId = sessionId;
  browser.stdio[3].write(JSON.stringify(message) + "\0");
  return new Promise((ok, fail) => waiting.set(id, { ok, fail, method }));
}

// The step under way, for the message when time runs out.
let current = "starting the browser";
const deadline = setTimeout(
  () => finish(new Error(`the pages took more than 150 s; at ${current}`)), 150000);
async function finish(error, results) {
  clearTimeout(deadline);
  const gone = new Promise((ok) => browser.once("exit", ok));
  browser.kill("SIGKILL");
  await Promise.race([gone, new Promise((ok) => setTimeout(ok, 5000))]);
  try {
    rmSync(profile, { recursive: true, force: true });
  } catch {
    // A folder left in the temp folder is no failure of the pages.
  }
  if (error) {
    process.stderr.write(`netdrive.mjs: ${error.message}\nthe pages' consoles:\n` +
      `${said.slice(-20).join("\n")}\n`);
    process.exit(1);
  }
  writeFileSync(resultsFile, JSON.stringify(results));
  process.exit(0);
}

// Windows virtual-key codes Chromium wants with a key event, for the keys the test presses.
const VK = { ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, KeyZ: 90, KeyX: 88,
  Space: 32 };

async function openPage() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const call = (method, params) => send(method, params, sessionId);
  await call("Page.enable");
  await call("Runtime.enable");
  await call("Emulation.setDeviceMetricsOverride",
    { width: 640, height: 480, deviceScaleFactor: 1, mobile: false });
  // Each page behaves as the focused one, whichever the browser last focused.
  await call("Emulation.setFocusEmulationEnabled", { enabled: true });
  const evaluate = async (expression) => {
    const r = await call("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) {
      throw new Error(`${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    }
    return r.result.value;
  };
  return { call, evaluate };
}

async function run() {
  const pages = [];
  const results = [];
  for (const step of plan) {
    current = JSON.stringify(step);
    if (step.wait_ms) {
      await new Promise((ok) => setTimeout(ok, step.wait_ms));
      results.push(null);
      continue;
    }
    while (pages.length <= step.page) pages.push(await openPage());
    const page = pages[step.page];
    const waitFor = async (expression, limit, failureExpected = false) => {
      const until = Date.now() + limit;
      for (;;) {
        if (await page.evaluate(`!!(${expression})`)) return;
        const error = await page.evaluate("window.bt && window.bt.error");
        if (error && !failureExpected) throw new Error(`page ${step.page} failed: ${error}`);
        if (Date.now() > until) {
          const foot = await page.evaluate(
            "(document.getElementById('bt-status') || {}).textContent || ''");
          throw new Error(`page ${step.page} waited ${limit} ms for ${expression}; ` +
            `its foot says: ${JSON.stringify(foot)}`);
        }
        await new Promise((ok) => setTimeout(ok, 50));
      }
    };
    if (step.open) {
      await page.call("Page.navigate", { url: origin + step.open });
      await waitFor("window.bt && (window.bt.ready || window.bt.error)", LIMIT_MS,
        step.refused === true);
      const error = await page.evaluate("window.bt.error");
      if (step.refused && !error) throw new Error(`${step.open}: the page started, though it should not`);
      results.push(step.refused ? { error } : null);
    } else if (step.eval) {
      results.push(await page.evaluate(step.eval));
    } else if (step.key) {
      const code = step.key;
      await page.call("Input.dispatchKeyEvent", {
        type: step.down ? "rawKeyDown" : "keyUp", code, key: code,
        windowsVirtualKeyCode: VK[code] || 0,
      });
      results.push(null);
    } else if (step.wait_for) {
      await waitFor(step.wait_for, step.ms || LIMIT_MS);
      results.push(null);
    } else {
      throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  }
  return results;
}

run().then((results) => finish(null, results), (e) => finish(e));
