// BT's page host: plays a cart compiled to WebAssembly. It reads the picture and the samples
// straight out of the module's memory and feeds it the page's events; the console itself (the
// fixed-step loop, the clock, input, the overlay, recording) runs inside the module, the same
// code as `bt run`. No framework and no generated bindings: the module's interface is a few
// functions of numbers (see runtime/web/src/abi.rs), and everything a player does goes in
// through one of them, `bt_event`, as a kind and up to three numbers.
"use strict";

const BT = (() => {
  const BOOT_NO_OVERLAY = 1;
  const FRAME_DREW = 1;
  const FRAME_PAUSED = 2;
  // The kinds of event `bt_event` takes (runtime/web/src/event.rs, `kind`).
  const EVENT = {
    KEY: 1, TEXT: 2, POINTER_MOVED: 3, POINTER_LEFT: 4, POINTER_BUTTON: 5, WHEEL: 6,
    FOCUS_LOST: 7, GAMEPAD: 8, GAMEPAD_BUTTON: 9, GAMEPAD_AXIS: 10,
  };
  const ACTION_FULLSCREEN = 1;
  const ACTION_PNG = 2;
  const ACTION_TIMINGS = 3;
  const ACTION_REPLAY = 4;
  // Keys the browser keeps for itself whatever the page does (or that a player expects it
  // to): devtools, and any chord with Ctrl or Meta (reload, close, copy...).
  const BROWSER_KEYS = new Set(["F12"]);
  // A wheel turn reported in pixels is worth this many pixels a line, as in the window.
  const PIXELS_PER_LINE = 16;
  const PLAYERS = 4;

  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  /// The module's exports, with helpers to pass text in and out. A panic stops the module
  /// (it is built with `panic = "abort"`): the module hands over the message (`panicked`),
  /// then traps. From then on the console is stopped: `stopped` says why, `onStop` is called
  /// once, and every call into the module throws without running.
  class Console {
    constructor(instance, panic) {
      this.memory = instance.exports.memory;
      this.panic = panic;
      this.stopped = null;
      this.onStop = () => {};
      this.ex = {};
      for (const [name, f] of Object.entries(instance.exports)) {
        if (typeof f === "function") this.ex[name] = (...args) => this.call(name, f, args);
      }
    }
    call(name, f, args) {
      if (this.stopped) throw new Error(this.stopped);
      try {
        return f(...args);
      } catch (e) {
        if (!(e instanceof WebAssembly.RuntimeError)) throw e;
        this.stopped = `the cart stopped: ${this.panic.message || `${e.message} in ${name}`}`;
        this.onStop(this.stopped);
        throw new Error(this.stopped);
      }
    }
    /// One event: a kind of `EVENT` and its numbers; returns the page action it asks for.
    event(kind, a = 0, b = 0, c = 0) {
      return this.ex.bt_event(kind, a, b, c);
    }
    put(text) {
      const bytes = encoder.encode(text);
      const ptr = this.ex.bt_inbox(bytes.length);
      new Uint8Array(this.memory.buffer, ptr, bytes.length).set(bytes);
      return bytes.length;
    }
    outBytes() {
      const ptr = this.ex.bt_out_ptr();
      const len = this.ex.bt_out_len();
      return new Uint8Array(this.memory.buffer, ptr, len).slice();
    }
    outText() {
      return decoder.decode(this.outBytes());
    }
    check(failed, what) {
      if (failed) throw new Error(`${what}: ${this.outText()}`);
    }
    get width() { return this.ex.bt_width(); }
    get height() { return this.ex.bt_height(); }
    rgba() {
      const n = this.width * this.height * 4;
      return new Uint8ClampedArray(this.memory.buffer, this.ex.bt_rgba_ptr(), n);
    }
    samples() {
      const len = this.ex.bt_samples_len();
      return new Int16Array(this.memory.buffer, this.ex.bt_samples_ptr(), len);
    }
  }

  /// What the module imports: `bt.now_ms`, the page's clock, and `bt.panicked`, which keeps a
  /// panic's message (read out of the module's memory) for when the module stops.
  function imports(panic) {
    return {
      bt: {
        now_ms: () => performance.now(),
        panicked: (ptr, len) => {
          panic.message = decoder.decode(new Uint8Array(panic.memory.buffer, ptr, len));
        },
      },
    };
  }

  /// A module of one function that uses SIMD (`i32.const 0`, `i8x16.splat`, `i8x16.popcnt`):
  /// valid exactly where the page's module can run.
  const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1,
    0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

  /// Loads the module and boots the cart with its arguments and, maybe, a replay to play.
  async function boot(wasmUrl, args, replayText, flags) {
    // The module uses WebAssembly's SIMD: a browser without it is told what it needs.
    if (!WebAssembly.validate(SIMD_PROBE)) {
      throw new Error("this browser does not run WebAssembly SIMD, which the page needs: " +
        "Chrome or Edge 91, Firefox 89, Safari 16.4 or later do");
    }
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`${wasmUrl}: HTTP ${response.status}`);
    const module = await WebAssembly.compile(await response.arrayBuffer());
    const panic = { memory: null, message: null };
    const instance = await WebAssembly.instantiate(module, imports(panic));
    panic.memory = instance.exports.memory;
    const bt = new Console(instance, panic);
    let text = args.map(([k, v]) => `${k}=${v}\n`).join("");
    if (replayText !== null) text += `--replay--\n${replayText}`;
    bt.check(bt.ex.bt_boot(bt.put(text), flags), "boot");
    return bt;
  }

  /// Where the picture goes: a canvas the display's size, scaled by a whole number of device
  /// pixels as large as the window allows and centred on black.
  class Screen {
    constructor(canvas, bt) {
      this.canvas = canvas;
      this.bt = bt;
      canvas.width = bt.width;
      canvas.height = bt.height;
      this.ctx = canvas.getContext("2d", { alpha: false });
      this.image = null;
      this.scale = 1;
      this.layout();
      addEventListener("resize", () => this.layout());
    }
    layout() {
      const dpr = devicePixelRatio || 1;
      const { width, height } = this.bt;
      const fit = Math.floor(Math.min((innerWidth * dpr) / width, (innerHeight * dpr) / height));
      this.scale = Math.max(1, fit) / dpr;
      const w = width * this.scale;
      const h = height * this.scale;
      Object.assign(this.canvas.style, {
        width: `${w}px`,
        height: `${h}px`,
        left: `${Math.max(0, Math.floor((innerWidth - w) / 2))}px`,
        top: `${Math.max(0, Math.floor((innerHeight - h) / 2))}px`,
      });
    }
    paint() {
      const rgba = this.bt.rgba();
      // The module's memory may have grown (a new buffer) or the picture moved: a new view.
      if (!this.image || this.image.data.buffer !== rgba.buffer ||
          this.image.data.byteOffset !== rgba.byteOffset) {
        this.image = new ImageData(rgba, this.bt.width, this.bt.height);
      }
      this.ctx.putImageData(this.image, 0, 0);
    }
    /// The display pixel under a pointer event.
    pixel(event) {
      const r = this.canvas.getBoundingClientRect();
      return [
        Math.floor(((event.clientX - r.left) / r.width) * this.bt.width),
        Math.floor(((event.clientY - r.top) / r.height) * this.bt.height),
      ];
    }
  }

  /// Sound: an AudioWorklet plays what the updates made, from a ring it keeps, as the native
  /// device callback does. Browsers start audio only after a key or a click.
  class Speaker {
    constructor(bt, fps, workletUrl) {
      this.bt = bt;
      this.fps = fps;
      this.workletUrl = workletUrl;
      this.node = null;
      this.context = null;
      this.starting = false;
    }
    async start() {
      if (this.starting) return;
      this.starting = true;
      const rate = this.bt.ex.bt_sample_rate();
      this.context = new AudioContext({ sampleRate: rate, latencyHint: "interactive" });
      await this.context.audioWorklet.addModule(this.workletUrl);
      this.node = new AudioWorkletNode(this.context, "bt-sound", {
        numberOfInputs: 0,
        outputChannelCount: [1],
        processorOptions: { rate, fps: this.fps, live: true },
      });
      this.node.connect(this.context.destination);
      this.node.port.onmessage = (e) => { this.stats = e.data; };
      if (this.context.state === "suspended") await this.context.resume();
    }
    /// After a frame: its samples to the worklet (none until it runs: skipped, not late).
    push() {
      const samples = this.bt.samples();
      if (!this.node || samples.length === 0) return;
      const copy = samples.slice();
      this.node.port.postMessage(copy, [copy.buffer]);
    }
    hidden(hidden) {
      if (!this.context) return;
      if (hidden) this.context.suspend(); else this.context.resume();
    }
  }

  function download(name, bytes, type) {
    const url = URL.createObjectURL(new Blob([bytes], { type }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /// The standard-layout gamepads, read every frame, as changes.
  class Pads {
    constructor(bt) {
      this.bt = bt;
      this.known = new Array(PLAYERS).fill(null);
    }
    poll() {
      if (!navigator.getGamepads) return;
      const pads = navigator.getGamepads();
      for (let p = 0; p < PLAYERS; p++) {
        const pad = pads[p];
        const was = this.known[p];
        if (!pad || !pad.connected) {
          if (was) this.bt.event(EVENT.GAMEPAD, p, 0);
          this.known[p] = null;
          continue;
        }
        if (!was) this.bt.event(EVENT.GAMEPAD, p, 1);
        const before = was || { buttons: [], axes: [] };
        const now = { buttons: pad.buttons.map((b) => b.pressed), axes: [] };
        now.buttons.forEach((down, i) => {
          if (i === 6 || i === 7) return;
          if (down !== (before.buttons[i] || false)) this.bt.event(EVENT.GAMEPAD_BUTTON, p, i, down ? 1 : 0);
        });
        const axes = [pad.axes[0] || 0, pad.axes[1] || 0, pad.axes[2] || 0, pad.axes[3] || 0,
          pad.buttons[6] ? pad.buttons[6].value : 0, pad.buttons[7] ? pad.buttons[7].value : 0];
        axes.forEach((v, i) => {
          if (v !== before.axes[i]) this.bt.event(EVENT.GAMEPAD_AXIS, p, i, v);
        });
        now.axes = axes;
        this.known[p] = now;
      }
    }
  }

  function query() {
    const q = new URLSearchParams(location.search);
    const args = q.getAll("arg").map((a) => {
      const i = a.indexOf("=");
      return i < 0 ? [a, ""] : [a.slice(0, i), a.slice(i + 1)];
    });
    return { at: q.get("at"), wav: q.get("wav"), replay: q.get("replay"), args };
  }

  function status(text) {
    const el = document.getElementById("bt-status");
    if (el) el.textContent = text;
  }

  /// Plays `options.name` from `options.wasm` in `options.canvas`.
  async function start(options) {
    const canvas = options.canvas || document.getElementById("bt-screen");
    const q = query();
    const api = { ready: false, error: null, frames: 0, name: options.name };
    window.bt = api;
    try {
      const replayText = q.replay === null ? null : await (await fetch(q.replay)).text();
      // The test hooks draw as `bt shot` does: no overlay, nor its toggle corner.
      const flags = q.at !== null || q.wav !== null ? BOOT_NO_OVERLAY : 0;
      const bt = await boot(options.wasm, (options.args || []).concat(q.args), replayText, flags);
      api.console = bt;
      // A panic stops the cart: its message goes where the page's failures go.
      bt.onStop = (why) => {
        api.error = why;
        status(`bt: ${why}`);
        console.error(`bt: ${why}`);
      };
      api.replay = () => { bt.ex.bt_replay(); return bt.outText(); };
      api.ticks = () => bt.ex.bt_ticks();
      const screen = new Screen(canvas, bt);
      api.screen = screen;
      if (q.at !== null) {
        // The test hook: exactly the frame `bt shot --at` draws, then nothing more.
        bt.check(bt.ex.bt_render_at(Number(q.at)), `at=${q.at}`);
        screen.paint();
        api.pixels = () => Array.from(bt.rgba());
        api.ready = true;
        return api;
      }
      if (q.wav !== null) {
        api.wav = () => offlineWav(bt, Number(q.wav), options.worklet || "bt-audio.js",
          bt.ex.bt_target_fps());
        api.ready = true;
        return api;
      }
      play(bt, screen, api, options);
    } catch (e) {
      api.error = String(e && e.message ? e.message : e);
      status(`bt: ${api.error}`);
      console.error(e);
    }
    return api;
  }

  /// The `wav` hook: the samples of the first `seconds`, made by the module as `bt wav`
  /// makes them, played through the same worklet in an OfflineAudioContext; returns what came
  /// out of it as 16-bit samples.
  async function offlineWav(bt, seconds, workletUrl, fps) {
    bt.check(bt.ex.bt_wav(seconds), `wav=${seconds}`);
    const samples = bt.samples().slice();
    const rate = bt.ex.bt_sample_rate();
    const context = new OfflineAudioContext(1, samples.length, rate);
    await context.audioWorklet.addModule(workletUrl);
    const node = new AudioWorkletNode(context, "bt-sound", {
      numberOfInputs: 0,
      outputChannelCount: [1],
      processorOptions: { rate, fps, live: false },
    });
    node.connect(context.destination);
    const queued = new Promise((resolve) => { node.port.onmessage = resolve; });
    node.port.postMessage(samples, [samples.buffer]);
    await queued;
    const out = (await context.startRendering()).getChannelData(0);
    return Array.from(out, (v) => Math.round(v * 32768));
  }

  function play(bt, screen, api, options) {
    const speaker = new Speaker(bt, bt.ex.bt_target_fps(), options.worklet || "bt-audio.js");
    const pads = new Pads(bt);
    const name = options.name;
    const startSound = () => { speaker.start().catch((e) => status(`bt: no sound (${e})`)); };

    const act = (action) => {
      switch (action) {
        case ACTION_FULLSCREEN:
          if (document.fullscreenElement) document.exitFullscreen();
          else document.documentElement.requestFullscreen().catch(() => {});
          break;
        case ACTION_PNG: download(`${name}.png`, bt.outBytes(), "image/png"); break;
        case ACTION_TIMINGS: download(`${name}-timings.json`, bt.outBytes(), "application/json"); break;
        case ACTION_REPLAY: download(`${name}.btr`, bt.outBytes(), "application/json"); break;
      }
    };
    const key = (event, down) => {
      if (event.ctrlKey || event.metaKey || BROWSER_KEYS.has(event.code) || bt.stopped) return;
      event.preventDefault();
      startSound();
      if (event.repeat) return;
      act(bt.event(EVENT.KEY, bt.put(event.code), down ? 1 : 0));
      if (down && event.key.length === 1 && !/^F\d+$/.test(event.code) && event.code !== "Backquote") {
        bt.event(EVENT.TEXT, bt.put(event.key));
      }
      // A host key changes the picture of a paused game (the overlay, a step).
      screen.paint();
    };
    addEventListener("keydown", (e) => key(e, true));
    addEventListener("keyup", (e) => key(e, false));
    addEventListener("blur", () => { if (!bt.stopped) bt.event(EVENT.FOCUS_LOST); });
    canvas_events(bt, screen, startSound);

    let last = null;
    let hiddenAt = null;
    let pending = 0;
    const tick = (now) => {
      pending = 0;
      if (document.hidden) return;
      if (hiddenAt !== null) {
        // Back from a hidden tab: the clock counts at most one clamped frame of the absence.
        console.info(`bt: hidden for ${((now - hiddenAt) / 1000).toFixed(1)} s; the game ` +
          "was paused, and the frame after it was clamped");
        hiddenAt = null;
      }
      let flags;
      try {
        pads.poll();
        flags = bt.ex.bt_frame(now);
      } catch (e) {
        // The cart stopped (onStop said why): no more frames.
        if (bt.stopped) return;
        throw e;
      }
      api.frames += flags & FRAME_DREW ? 1 : 0;
      api.paused = (flags & FRAME_PAUSED) !== 0;
      screen.paint();
      speaker.push();
      if (last === null) api.firstFrameMs = performance.now();
      last = now;
      pending = requestAnimationFrame(tick);
    };
    document.addEventListener("visibilitychange", () => {
      speaker.hidden(document.hidden);
      if (document.hidden) {
        hiddenAt = last;
        if (pending) cancelAnimationFrame(pending);
        pending = 0;
      } else if (!pending) {
        pending = requestAnimationFrame(tick);
      }
    });
    // Figures: what `frames` frames of play cost here, update, render and painting the
    // canvas together, in ms a frame (timestamps a 60th of a second apart, as fast as it goes).
    api.bench = (frames) => {
      let now = last === null ? performance.now() : last;
      const started = performance.now();
      for (let i = 0; i < frames; i++) {
        now += 1000 / 60;
        bt.ex.bt_frame(now);
        screen.paint();
      }
      return (performance.now() - started) / frames;
    };
    api.ready = true;
    pending = requestAnimationFrame(tick);
  }

  function canvas_events(bt, screen, startSound) {
    const canvas = screen.canvas;
    // Events after the cart stopped go nowhere.
    const on = (type, handle, options) => canvas.addEventListener(type, (e) => {
      if (!bt.stopped) handle(e);
    }, options);
    on("pointermove", (e) => bt.event(EVENT.POINTER_MOVED, ...screen.pixel(e)));
    on("pointerleave", () => bt.event(EVENT.POINTER_LEFT));
    on("pointerdown", (e) => {
      startSound();
      bt.event(EVENT.POINTER_MOVED, ...screen.pixel(e));
      bt.event(EVENT.POINTER_BUTTON, e.button, 1);
      screen.paint();
    });
    on("pointerup", (e) => bt.event(EVENT.POINTER_BUTTON, e.button, 0));
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    on("wheel", (e) => {
      e.preventDefault();
      const lines = e.deltaMode === 1 ? 1 : e.deltaMode === 2 ? 10 : 1 / PIXELS_PER_LINE;
      bt.event(EVENT.WHEEL, e.deltaX * lines, e.deltaY * lines);
    }, { passive: false });
  }

  return { start };
})();
