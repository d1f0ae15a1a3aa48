// Drives a page `bt web` wrote in headless Chromium, for carts/gallery/tests/web.rs. It serves
// the folder over HTTP itself (Node's own http module) and talks to Chromium through the
// DevTools protocol over a pipe (--remote-debugging-pipe: JSON messages ending in NUL on file
// descriptors 3 and 4), so it needs Node and Chromium and nothing from a package registry.
//
//   node drive.mjs CHROMIUM SITE PLAN.json RESULTS.json
//
// PLAN is a list of steps; the result of each step goes, as one JSON array, to RESULTS:
//   {"viewport": [w, h]}                 the page's size in CSS pixels, at 1 device pixel each
//   {"viewport": [w, h], "mobile": true} the same as a phone: a touch screen, no mouse
//   {"open": "index.html?at=3.2"}        load it and wait until `window.bt.ready` (or an error)
//   {"open": "...", "refused": true}     load it and wait until it stops with an error, which
//                                        is the result: {"error": "..."}
//   {"eval": "expression"}               its value (promises awaited)
//   {"cpu": "expression"}                its value, with the CPU time the page's main thread
//                                        spent meanwhile and the time that passed, in ms:
//                                        {"value", "cpu_ms", "wall_ms"} (for bench/compare_web.py)
//   {"bytes": "expression", "as": "u8"}  an array of numbers it gives, as bytes ("u8") or
//                                        16-bit little-endian samples ("i16"), base64
//   {"screenshot": true}                 a PNG of the viewport, base64
//   {"key": "ArrowDown", "down": true}   a real key event, as the keyboard sends it; with
//                                        "shift": true, as Shift held sends it
//   {"download": "snake.btstate"}        the text of the file the page downloaded under that
//                                        name, once it is there (at most 20 s)
//   {"wait_ms": 500}                     time passing in the page
//   {"wait_for": "expression"}           until it is true (at most 20 s)
//   {"requests": true}                   the paths the page asked the server for so far
//   {"touch": "touchStart", "points": "expression"}
//                                        a real touch event ("touchStart", "touchMove",
//                                        "touchEnd") with the fingers now on the screen, at
//                                        the [x, y] the expression gives for each (its index
//                                        is the finger's id): a finger more starts, one fewer
//                                        lifts, and touchEnd with none lifts them all
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync, writeFileSync, mkdtempSync, rmSync, existsSync } from "node:fs";
import { join, extname, normalize } from "node:path";
import { tmpdir } from "node:os";

const [chromium, site, planFile, resultsFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, "utf8"));
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm",
  ".btr": "application/json" };
const LIMIT_MS = 20000;

const requested = [];
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
  requested.push(path);
  try {
    const body = readFileSync(join(site, path === "/" ? "index.html" : path));
    res.writeHead(200, { "content-type": TYPES[extname(path)] || "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const origin = `http://127.0.0.1:${server.address().port}/`;

const profile = mkdtempSync(join(tmpdir(), "bt-chromium-"));
// What the page downloads goes here, in the profile's folder (which goes at the end).
const downloads = join(profile, "downloads");
const browser = spawn(chromium, [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
  `--user-data-dir=${profile}`, "--no-first-run", "--hide-scrollbars", "--mute-audio",
  "--force-device-scale-factor=1", "--force-color-profile=srgb",
  "--autoplay-policy=no-user-gesture-required", "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let chromeErr = "";
browser.stderr.on("data", (d) => { chromeErr += d; });

let nextId = 1;
const waiting = new Map();
let buffered = Buffer.alloc(0);
browser.stdio[4].on("data", (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  let end;
  while ((end = buffered.indexOf(0)) >= 0) {
    const message = JSON.parse(buffered.subarray(0, end).toString("utf8"));
    buffered = buffered.subarray(end + 1);
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

const deadline = setTimeout(() => finish(new Error("the browser took more than 120 s")), 120000);
async function finish(error, results) {
  clearTimeout(deadline);
  // The profile folder goes once the browser has stopped writing into it.
  const gone = new Promise((ok) => browser.once("exit", ok));
  browser.kill("SIGKILL");
  await Promise.race([gone, new Promise((ok) => setTimeout(ok, 5000))]);
  server.close();
  try {
    rmSync(profile, { recursive: true, force: true });
  } catch {
    // A folder left in the temp folder is no failure of the page.
  }
  if (error) {
    process.stderr.write(`drive.mjs: ${error.message}\n${chromeErr.slice(-2000)}\n`);
    process.exit(1);
  }
  writeFileSync(resultsFile, JSON.stringify(results));
  process.exit(0);
}

async function run() {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const page = (method, params) => send(method, params, sessionId);
  await send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads });
  await page("Page.enable");
  await page("Runtime.enable");
  const evaluate = async (expression) => {
    const r = await page("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) {
      throw new Error(`${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    }
    return r.result.value;
  };
  // Waits until `expression` is true; a page that fails meanwhile ends the wait with its
  // error, unless the failure is what is waited for (`failureExpected`).
  const waitFor = async (expression, failureExpected = false) => {
    const until = Date.now() + LIMIT_MS;
    for (;;) {
      if (await evaluate(`!!(${expression})`)) return;
      const error = await evaluate("window.bt && window.bt.error");
      if (error && !failureExpected) throw new Error(`the page failed: ${error}`);
      if (Date.now() > until) throw new Error(`waited ${LIMIT_MS} ms for ${expression}`);
      await new Promise((ok) => setTimeout(ok, 20));
    }
  };
  const results = [];
  for (const step of plan) {
    if (step.viewport) {
      const [width, height] = step.viewport;
      const mobile = step.mobile === true;
      await page("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile });
      await page("Emulation.setTouchEmulationEnabled", { enabled: mobile, maxTouchPoints: 5 });
      results.push(null);
    } else if (step.open) {
      const started = Date.now();
      await page("Page.navigate", { url: origin + step.open });
      await waitFor("window.bt && (window.bt.ready || window.bt.error)", step.refused === true);
      const error = await evaluate("window.bt.error");
      if (step.refused) {
        // The page is to stop with a message: it is the step's result.
        if (!error) throw new Error(`${step.open}: the page started, though it should not`);
        results.push({ error });
        continue;
      }
      if (error) throw new Error(`${step.open}: ${error}`);
      results.push({ ms: Date.now() - started });
    } else if (step.eval) {
      results.push(await evaluate(step.eval));
    } else if (step.cpu) {
      await page("Performance.enable");
      const thread = async () => (await page("Performance.getMetrics")).metrics
        .find((m) => m.name === "ThreadTime").value * 1000;
      const [cpu, wall] = [await thread(), Date.now()];
      const value = await evaluate(step.cpu);
      results.push({ value, cpu_ms: (await thread()) - cpu, wall_ms: Date.now() - wall });
    } else if (step.bytes) {
      const typed = step.as === "i16" ? "Int16Array" : "Uint8Array";
      results.push(await evaluate(`(async () => {
        const bytes = new Uint8Array(${typed}.from(await (${step.bytes})).buffer);
        let text = "";
        for (let i = 0; i < bytes.length; i += 8192) {
          text += String.fromCharCode(...bytes.subarray(i, i + 8192));
        }
        return btoa(text);
      })()`));
    } else if (step.screenshot) {
      const { data } = await page("Page.captureScreenshot", { format: "png" });
      results.push(data);
    } else if (step.key) {
      const code = step.key;
      const key = code.startsWith("Key") ? code.slice(3).toLowerCase() : code;
      await page("Input.dispatchKeyEvent", {
        type: step.down ? "rawKeyDown" : "keyUp", code, key, windowsVirtualKeyCode: VK[code] || 0,
        modifiers: step.shift ? 8 : 0,
      });
      results.push(null);
    } else if (step.download) {
      const file = join(downloads, step.download);
      const until = Date.now() + LIMIT_MS;
      while (!existsSync(file)) {
        if (Date.now() > until) throw new Error(`waited ${LIMIT_MS} ms for ${step.download}`);
        await new Promise((ok) => setTimeout(ok, 20));
      }
      results.push(readFileSync(file, "utf8"));
    } else if (step.requests) {
      results.push(requested.slice());
    } else if (step.touch) {
      const points = step.points ? await evaluate(step.points) : [];
      await page("Input.dispatchTouchEvent", {
        type: step.touch,
        touchPoints: points.map(([x, y], id) => ({ x, y, id })),
      });
      results.push(null);
    } else if (step.wait_ms) {
      await new Promise((ok) => setTimeout(ok, step.wait_ms));
      results.push(null);
    } else if (step.wait_for) {
      await waitFor(step.wait_for);
      results.push(null);
    } else {
      throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  }
  return results;
}

// Windows virtual-key codes Chromium wants with a key event, for the keys tests press.
const VK = { ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, KeyZ: 90, KeyX: 88,
  Space: 32, Enter: 13, Backquote: 192, F5: 116, F6: 117, F7: 118, F2: 113, F1: 112, F3: 114,
  F4: 115, ShiftLeft: 16 };

run().then((results) => finish(null, results), (e) => finish(e));
