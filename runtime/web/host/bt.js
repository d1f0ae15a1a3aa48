// BT's page host: plays a cart compiled to WebAssembly. It reads the picture and the samples
// straight out of the module's memory and feeds it the page's events; the console itself (the
// fixed-step loop, the clock, input, the overlay, recording) runs inside the module, the same
// code as `bt run`. No framework and no generated bindings: the module's interface is a few
// functions of numbers (see runtime/web/src/abi.rs), and everything a player does goes in
// through one of them, `bt_event`, as a kind and up to three numbers.
"use strict";

const BT = (() => {
  const BOOT_NO_OVERLAY = 1;
  const BOOT_PLAYER_SAVE = 2;
  const BOOT_REDUCED_MOTION = 4;
  const BOOT_NETPLAY = 8;
  // The player's reduced-motion preference, as the browser knows it.
  const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";
  const FRAME_DREW = 1;
  const FRAME_PAUSED = 2;
  const FRAME_SAVE = 4;
  const FRAME_ENDED = 8;
  const FRAME_CAPTURE = 16;
  const FRAME_CURSOR_HIDDEN = 32;
  const FRAME_POINTER_LOCKED = 64;
  // The kinds of event `bt_event` takes (runtime/web/src/event.rs, `kind`).
  const EVENT = {
    KEY: 1, TEXT: 2, POINTER_MOVED: 3, POINTER_LEFT: 4, POINTER_BUTTON: 5, WHEEL: 6,
    FOCUS_LOST: 7, GAMEPAD: 8, GAMEPAD_BUTTON: 9, GAMEPAD_AXIS: 10,
    TOUCH_START: 11, TOUCH_MOVE: 12, TOUCH_END: 13, POINTER_MOTION: 14,
    REDUCED_MOTION: 15, STATE_FILE: 16,
  };
  const ACTION_FULLSCREEN = 1;
  const ACTION_PNG = 2;
  const ACTION_TIMINGS = 3;
  const ACTION_REPLAY = 4;
  const ACTION_QUIT = 5;
  const ACTION_STATE = 6;
  const ACTION_CHOOSE_STATE = 7;
  const ACTION_REFUSED = 8;
  // Keys the browser keeps for itself whatever the page does (or that a player expects it
  // to): devtools, and any chord with Ctrl or Meta (reload, close, copy...). Every other key
  // is the game's, its default action prevented: F1 (the browser's help) rewinds, F3 (find)
  // saves a state, F5 (reload) pauses.
  const BROWSER_KEYS = new Set(["F12"]);
  // The largest state file read: a replay's most (bt_runtime::replay::MAX_REPLAY_BYTES), checked
  // before a larger one is read into the tab's memory.
  const MAX_STATE_FILE = 67108864;
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
      return this.putBytes(encoder.encode(text));
    }
    putBytes(bytes) {
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
    /// The picture's size: the display's, or the output picture's while the cart's
    /// post-process effects run (docs/effects.md).
    get pictureWidth() { return this.ex.bt_picture_width(); }
    get pictureHeight() { return this.ex.bt_picture_height(); }
    rgba() {
      const n = this.pictureWidth * this.pictureHeight * 4;
      return new Uint8ClampedArray(this.memory.buffer, this.ex.bt_rgba_ptr(), n);
    }
    samples() {
      const len = this.ex.bt_samples_len();
      return new Int16Array(this.memory.buffer, this.ex.bt_samples_ptr(), len);
    }
  }

  /// The browser's storage (`localStorage`), where the player's save data is kept as the
  /// text of a save file in base64. A browser that refuses storage (turned off, a private
  /// window that is full) keeps nothing, and says why.
  const storage = {
    get(key) {
      try {
        return localStorage.getItem(key);
      } catch (e) {
        console.warn(`bt: no save data: the browser's storage is not available (${e})`);
        return null;
      }
    },
    set(key, bytes) {
      let text = "";
      for (const b of bytes) text += String.fromCharCode(b);
      localStorage.setItem(key, btoa(text));
    },
  };

  /// The bytes of a save file kept as base64 text; text that is not base64 is handed over
  /// as it is, for the module to refuse by name.
  function unbase64(text) {
    let raw;
    try {
      raw = atob(text);
    } catch {
      return encoder.encode(text);
    }
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  }

  /// What the module imports: `bt.now_ms`, the page's clock; `bt.panicked`, which keeps a
  /// panic's message (read out of the module's memory) for when the module stops;
  /// `bt.load_save`, which hands the module the save data kept under a key, through its inbox;
  /// `bt.random`, the browser's random bytes, and `bt.date_now`, the time since 1970 in ms
  /// (GGRS's ping figures, through BT's stand-in for js-sys). A module that imports anything
  /// else is refused, naming it.
  function imports(module, wanted) {
    const text = (ptr, len) => decoder.decode(new Uint8Array(module.memory.buffer, ptr, len));
    const given = {
      bt: {
        now_ms: () => performance.now(),
        date_now: () => Date.now(),
        random: (ptr, len) => {
          // getRandomValues fills at most 65536 bytes a call.
          for (let at = 0; at < len; at += 65536) {
            crypto.getRandomValues(new Uint8Array(module.memory.buffer, ptr + at, Math.min(65536, len - at)));
          }
        },
        panicked: (ptr, len) => {
          module.message = text(ptr, len);
        },
        load_save: (ptr, len) => {
          const kept = storage.get(text(ptr, len));
          if (kept === null) return -1;
          const bytes = unbase64(kept);
          const at = module.exports.bt_inbox(bytes.length);
          new Uint8Array(module.memory.buffer, at, bytes.length).set(bytes);
          return bytes.length;
        },
      },
    };
    for (const { module: from, name } of wanted) {
      if (!(given[from] && given[from][name])) {
        throw new Error(`the module imports ${from}.${name}, which this page does not provide ` +
          "(a module built by another version of bt web?)");
      }
    }
    return given;
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
    const program = await response.arrayBuffer();
    const module = await WebAssembly.compile(program);
    const panic = { memory: null, exports: null, message: null };
    const instance = await WebAssembly.instantiate(module,
      imports(panic, WebAssembly.Module.imports(module)));
    panic.memory = instance.exports.memory;
    panic.exports = instance.exports;
    const bt = new Console(instance, panic);
    // The module cannot read its own file: its bytes name the build its state files carry, so a
    // state saved by another build of the page is refused as natively.
    bt.ex.bt_program(bt.putBytes(new Uint8Array(program)));
    let text = args.map(([k, v]) => `${k}=${v}\n`).join("");
    if (replayText !== null) text += `--replay--\n${replayText}`;
    bt.check(bt.ex.bt_boot(bt.put(text), flags), "boot");
    // What the player should know of the boot (save data left as it is, damaged).
    const said = bt.outText();
    if (said) console.warn(`bt: ${said}`);
    return bt;
  }

  /// Where the picture goes: a canvas the display's size, scaled by a whole number of device
  /// pixels as large as the window allows and centred on black. With the touch pad shown, the
  /// picture keeps out of the pad's way: above it on a portrait screen, between its halves on
  /// a landscape one.
  class Screen {
    constructor(canvas, bt) {
      this.canvas = canvas;
      this.bt = bt;
      canvas.width = bt.width;
      canvas.height = bt.height;
      this.ctx = canvas.getContext("2d", { alpha: false });
      this.image = null;
      this.scale = 1;
      this.pad = null;
      this.layout();
      addEventListener("resize", () => this.layout());
    }
    layout() {
      const dpr = devicePixelRatio || 1;
      const { width, height } = this.bt;
      const box = this.pad ? this.pad.pictureBox() : null;
      const room = box || { left: 0, top: 0, width: innerWidth, height: innerHeight, atTop: false };
      const fit = Math.floor(Math.min((room.width * dpr) / width, (room.height * dpr) / height));
      this.scale = Math.max(1, fit) / dpr;
      const w = width * this.scale;
      const h = height * this.scale;
      const left = room.left + Math.max(0, Math.floor((room.width - w) / 2));
      const top = room.top + (room.atTop ? 0 : Math.max(0, Math.floor((room.height - h) / 2)));
      Object.assign(this.canvas.style, {
        width: `${w}px`,
        height: `${h}px`,
        left: `${left}px`,
        top: `${top}px`,
      });
      if (box) this.pad.layout({ left, top, width: w, height: h });
    }
    paint() {
      const rgba = this.bt.rgba();
      const w = this.bt.pictureWidth;
      const h = this.bt.pictureHeight;
      // The effects came on or went off: the canvas takes the picture's size; its place on
      // the page (set in CSS by layout) stays the display's.
      if (this.canvas.width !== w || this.canvas.height !== h) {
        this.canvas.width = w;
        this.canvas.height = h;
        this.image = null;
      }
      // The module's memory may have grown (a new buffer) or the picture moved: a new view.
      if (!this.image || this.image.data.buffer !== rgba.buffer ||
          this.image.data.byteOffset !== rgba.byteOffset ||
          this.image.data.length !== rgba.length) {
        this.image = new ImageData(rgba, w, h);
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
        outputChannelCount: [2],
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

  // What the touch pad's parts press: the keys player one's buttons are on by default (the
  // arrows, Z for A, X for B), P for the pause menu, and the host's time-travel keys (F1 held
  // rewinds, F3 saves a state, F4 loads it), sent as those keys are, so the pad plays, opens
  // and works the menu and travels in time exactly as the keyboard does.
  const PAD_KEYS = {
    up: "ArrowUp", down: "ArrowDown", left: "ArrowLeft", right: "ArrowRight",
    a: "KeyZ", b: "KeyX", menu: "KeyP", rewind: "F1", save: "F3", load: "F4",
  };
  // The pad's small buttons, pills beside MENU.
  const PAD_PILLS = ["menu", "rewind", "save", "load"];
  // The least height (CSS pixels) kept for the pad below the picture on a portrait screen.
  const PAD_BELOW = 200;
  // The most width kept for each half of the pad beside the picture on a landscape screen.
  const PAD_BESIDE = 170;
  // Within this fraction of the d-pad's radius from its centre, a touch presses nothing.
  const DPAD_DEAD = 0.15;
  // A touch counts for a direction when it is off the other axis by more than this fraction
  // of its distance (sin 22.5 degrees: eight even sectors, diagonals pressing two).
  const DPAD_AXIS = 0.38;

  /// The touch pad: a d-pad, A and B, a menu button, and REWIND (held), SAVE and LOAD for
  /// the state slot, drawn outside the picture, shown on a touch screen. Each finger is followed on its own (hold right with one and press A with
  /// another; slide from one direction to the next); a part is down while any finger is on it.
  class TouchPad {
    constructor(press) {
      this.press = press;
      this.held = new Map();
      this.fingers = new Map();
      this.root = document.createElement("div");
      this.root.id = "bt-pad";
      this.root.hidden = true;
      const part = (cls, label) => {
        const el = document.createElement("div");
        el.className = cls;
        el.textContent = label;
        this.root.append(el);
        return el;
      };
      this.parts = {
        dpad: part("bt-dpad", ""),
        b: part("bt-button", "B"),
        a: part("bt-button", "A"),
        menu: part("bt-menu", "MENU"),
        rewind: part("bt-menu", "REWIND"),
        save: part("bt-menu", "SAVE"),
        load: part("bt-menu", "LOAD"),
      };
      this.rects = {};
      document.body.append(this.root);
      for (const type of ["pointerdown", "pointermove", "pointerup", "pointercancel"]) {
        this.root.addEventListener(type, (e) => this.finger(e), { passive: false });
      }
      this.root.addEventListener("contextmenu", (e) => e.preventDefault());
    }
    get shown() { return !this.root.hidden; }
    /// Where the picture may go while the pad shows.
    pictureBox() {
      if (!this.shown) return null;
      if (innerHeight >= innerWidth) {
        const height = Math.max(innerHeight - PAD_BELOW, Math.floor(innerHeight * 0.4));
        return { left: 0, top: 0, width: innerWidth, height, atTop: true };
      }
      const side = Math.min(PAD_BESIDE, Math.floor(innerWidth * 0.25));
      return { left: side, top: 0, width: innerWidth - 2 * side, height: innerHeight, atTop: false };
    }
    /// Places the parts around the picture (its place on the page).
    layout(picture) {
      let left;
      let right;
      let pills;
      let pill;
      if (innerHeight >= innerWidth) {
        const top = picture.top + picture.height;
        const h = innerHeight - top;
        left = { x: 0, y: top + 32, w: innerWidth / 2, h: h - 32 };
        right = { x: innerWidth / 2, y: top + 32, w: innerWidth / 2, h: h - 32 };
        // One row across the top of the pad: SAVE, LOAD, MENU in the middle, REWIND.
        const s = Math.min(80, innerWidth / 5.2);
        const x = innerWidth / 2;
        const y = top + 22;
        pills = { save: [x - 2 * s, y], load: [x - s, y], menu: [x, y], rewind: [x + s, y] };
        pill = Math.min(72, s - 6);
      } else {
        // At the top of each side: SAVE and LOAD left, MENU and REWIND right.
        const side = picture.left;
        left = { x: 0, y: 0, w: side, h: innerHeight };
        right = { x: innerWidth - side, y: 0, w: side, h: innerHeight };
        const l = side / 2;
        const r = innerWidth - side / 2;
        pills = { save: [l, 24], load: [l, 62], menu: [r, 24], rewind: [r, 62] };
        pill = Math.min(72, side - 8);
      }
      const d = Math.max(48, Math.min(160, left.w * 0.85, left.h * 0.85));
      this.place("dpad", left.x + left.w / 2, left.y + left.h / 2, d, d);
      const b = Math.max(40, Math.min(72, right.w * 0.36, right.h * 0.36));
      const cx = right.x + right.w / 2;
      const cy = right.y + right.h / 2;
      this.place("a", cx + b * 0.62, cy - b * 0.4, b, b);
      this.place("b", cx - b * 0.62, cy + b * 0.4, b, b);
      for (const name of PAD_PILLS) this.place(name, pills[name][0], pills[name][1], pill, 30);
    }
    place(name, x, y, w, h) {
      const rect = { x: x - w / 2, y: y - h / 2, w, h };
      this.rects[name] = rect;
      Object.assign(this.parts[name].style, {
        left: `${rect.x}px`, top: `${rect.y}px`, width: `${w}px`, height: `${h}px`,
      });
    }
    /// The middle of a part on the page, as [x, y]: a direction of the d-pad ("left"), or
    /// "a", "b", "menu", "rewind", "save", "load".
    centre(name) {
      const dpad = this.rects.dpad;
      const step = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[name];
      if (step) {
        const r = dpad.w * 0.35;
        return [dpad.x + dpad.w / 2 + step[0] * r, dpad.y + dpad.h / 2 + step[1] * r];
      }
      const rect = this.rects[name];
      return [rect.x + rect.w / 2, rect.y + rect.h / 2];
    }
    /// The parts a finger at (x, y) presses.
    at(x, y) {
      const on = [];
      const d = this.rects.dpad;
      const dx = x - (d.x + d.w / 2);
      const dy = y - (d.y + d.h / 2);
      const dist = Math.hypot(dx, dy);
      const r = d.w / 2;
      // A little past the d-pad still counts: a thumb drifts.
      if (dist >= r * DPAD_DEAD && dist <= r * 1.3) {
        if (Math.abs(dx) > dist * DPAD_AXIS) on.push(dx < 0 ? "left" : "right");
        if (Math.abs(dy) > dist * DPAD_AXIS) on.push(dy < 0 ? "up" : "down");
      }
      for (const name of ["a", "b"]) {
        const rect = this.rects[name];
        const rr = rect.w / 2;
        if (Math.hypot(x - (rect.x + rr), y - (rect.y + rr)) <= rr * 1.15) on.push(name);
      }
      for (const name of PAD_PILLS) {
        const m = this.rects[name];
        if (x >= m.x && x <= m.x + m.w && y >= m.y && y <= m.y + m.h) on.push(name);
      }
      return on;
    }
    finger(e) {
      e.preventDefault();
      const id = e.pointerId;
      if (e.type === "pointermove" && !this.fingers.has(id)) return;
      if (e.type === "pointerdown" && e.target.setPointerCapture) {
        // Keep following the finger wherever it slides.
        try { e.target.setPointerCapture(id); } catch { /* it may already be gone */ }
      }
      const lifted = e.type === "pointerup" || e.type === "pointercancel";
      const now = new Set(lifted ? [] : this.at(e.clientX, e.clientY));
      const before = this.fingers.get(id) || new Set();
      for (const name of now) if (!before.has(name)) this.change(name, 1);
      for (const name of before) if (!now.has(name)) this.change(name, -1);
      if (lifted) this.fingers.delete(id); else this.fingers.set(id, now);
    }
    change(name, by) {
      const n = (this.held.get(name) || 0) + by;
      this.held.set(name, n);
      if (by > 0 && n === 1) this.press(PAD_KEYS[name], true);
      if (by < 0 && n === 0) this.press(PAD_KEYS[name], false);
      const part = this.parts[name];
      if (part) part.classList.toggle("bt-held", n > 0);
    }
    /// Lets go of everything (the page lost the focus, the game ended).
    release() {
      for (const [name, n] of this.held) {
        if (n > 0) {
          this.held.set(name, 1);
          this.change(name, -1);
        }
      }
      this.fingers.clear();
    }
  }

  /// Over the page once the game has ended: what happened, and the way back.
  function endScreen(why) {
    const screen = document.createElement("div");
    screen.id = "bt-ended";
    const say = document.createElement("p");
    say.textContent = "The game ended. Reload the page to play again.";
    if (why) say.textContent = `${why}. ${say.textContent}`;
    const reload = document.createElement("button");
    reload.textContent = "Reload";
    reload.addEventListener("click", () => location.reload());
    screen.append(say, reload);
    document.body.append(screen);
    reload.focus();
  }

  // Netplay (`?room=NAME`): keep-alives to the signalling server, as matchbox's clients send
  // them, so a quiet connection stays open.
  const KEEP_ALIVE_MS = 10000;
  // What a page that already plays answers a third page's arrival with (in place of an offer).
  const ROOM_FULL = "Full";
  // How often the page's foot says how the link is.
  const NET_STATUS_MS = 500;
  // A room's longest name in bytes (UTF-8), as `bt signal` takes it
  // (bt_net::signal::MAX_ROOM_NAME).
  const MAX_ROOM_NAME = 64;

  /// Two pages, one game: meets the other page of `room` through the signalling server
  /// (`bt signal`, which speaks matchbox's protocol), opens one WebRTC data channel to it,
  /// unreliable and unordered, and carries the session's datagrams over it, one message each.
  /// The page that was in the room first (it hears of the other: `NewPeer`) makes the offer
  /// and plays player 1; the other plays player 2. The module does the rest
  /// (runtime/web/src/net.rs).
  class Netplay {
    constructor(bt, room, signal, stun) {
      this.bt = bt;
      this.room = room;
      this.iceServers = stun ? [{ urls: stun }] : [];
      this.peer = null;
      this.player = null;
      this.pc = null;
      this.channel = null;
      this.started = false;
      this.full = false;
      this.said = "";
      this.queue = Promise.resolve();
      const base = signal ? signal.replace(/\/+$/, "")
        : `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;
      this.url = `${base}/${encodeURIComponent(room)}`;
      const bytes = encoder.encode(room).length;
      if (bytes === 0 || bytes > MAX_ROOM_NAME || /[\u0000-\u001f\u007f-\u009f]/.test(room)) {
        throw new Error(`?room=${JSON.stringify(room)}: a room's name is 1 to ` +
          `${MAX_ROOM_NAME} bytes of printable text`);
      }
      try {
        // The browser checks the STUN server's address here, as it will for the connection.
        new RTCPeerConnection({ iceServers: this.iceServers }).close();
      } catch {
        throw new Error(`?stun=${JSON.stringify(stun)}: not a STUN server's address ` +
          "(stun:HOST:PORT)");
      }
      this.say(`netplay: room ${room}: connecting to ${this.url}`);
      try {
        this.ws = new WebSocket(this.url);
      } catch {
        throw new Error(`?signal=${JSON.stringify(signal)}: not a WebSocket address ` +
          "(ws://HOST:PORT or wss://HOST:PORT)");
      }
      this.ws.onmessage = (e) => this.signalled(e.data);
      this.ws.onclose = () => {
        clearInterval(this.keepAlive);
        if (!this.started && !this.full) {
          this.say(`netplay: room ${room}: the signalling server at ${this.url} closed the ` +
            "connection (is `bt signal` running there?)");
        }
      };
      this.keepAlive = setInterval(() => {
        if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify("KeepAlive"));
      }, KEEP_ALIVE_MS);
      this.statusTimer = setInterval(() => this.showStatus(), NET_STATUS_MS);
    }
    say(text) {
      this.said = text;
      status(text);
    }
    /// The module's line (the player and the link, or why the session ended), once it plays.
    showStatus() {
      if (!this.started || this.bt.stopped) return;
      if (this.bt.ex.bt_net_status()) this.say(this.bt.outText());
    }
    send(receiver, data) {
      if (this.ws.readyState === WebSocket.OPEN) {
        this.ws.send(JSON.stringify({ Signal: { receiver, data } }));
      }
    }
    /// Runs the WebRTC steps one after the other, in the order their messages came.
    then(step) {
      this.queue = this.queue.then(step).catch((e) => this.say(`netplay: ${e && e.message ? e.message : e}`));
    }
    signalled(text) {
      let m;
      try {
        m = JSON.parse(text);
      } catch {
        return;
      }
      if (m.IdAssigned !== undefined) {
        this.say(`netplay: room ${this.room}: waiting for another player`);
      } else if (m.NewPeer !== undefined) {
        if (this.peer !== null || this.full) {
          this.send(m.NewPeer, ROOM_FULL);
          return;
        }
        this.peer = m.NewPeer;
        this.player = 0;
        this.connect(null);
      } else if (m.PeerLeft !== undefined) {
        // The other page left before the game began: wait for the next one.
        if (m.PeerLeft === this.peer && !this.started) {
          if (this.pc) this.pc.close();
          this.pc = null;
          this.channel = null;
          this.peer = null;
          this.say(`netplay: room ${this.room}: the other player left; waiting for another`);
        }
      } else if (m.Signal !== undefined) {
        this.signal(m.Signal.sender, m.Signal.data);
      }
    }
    signal(sender, data) {
      if (data === ROOM_FULL) {
        if (this.peer === null && !this.full) {
          this.full = true;
          this.say(`netplay: room ${this.room} is full: two players play in it already`);
          this.ws.close();
        }
        return;
      }
      if (data === null || typeof data !== "object") return;
      if (data.Offer !== undefined) {
        if (this.peer !== null) {
          if (sender !== this.peer) this.send(sender, ROOM_FULL);
          return;
        }
        this.peer = sender;
        this.player = 1;
        this.connect(data.Offer);
        return;
      }
      if (sender !== this.peer || !this.pc) return;
      const pc = this.pc;
      if (data.Answer !== undefined) {
        this.then(() => pc.setRemoteDescription({ type: "answer", sdp: data.Answer }));
      } else if (data.IceCandidate !== undefined) {
        this.then(() => pc.addIceCandidate(JSON.parse(data.IceCandidate)));
      }
    }
    /// The connection to the other page: with `offer` null this page offers (player 1), else
    /// it answers that offer (player 2).
    connect(offer) {
      const pc = new RTCPeerConnection({ iceServers: this.iceServers });
      const peer = this.peer;
      this.pc = pc;
      pc.onicecandidate = (e) => {
        if (e.candidate) this.send(peer, { IceCandidate: JSON.stringify(e.candidate.toJSON()) });
      };
      this.say(`netplay: room ${this.room}: connecting to the other player`);
      if (offer === null) {
        this.open(pc.createDataChannel("bt", { ordered: false, maxRetransmits: 0 }));
        this.then(async () => {
          const made = await pc.createOffer();
          await pc.setLocalDescription(made);
          this.send(peer, { Offer: made.sdp });
        });
      } else {
        pc.ondatachannel = (e) => this.open(e.channel);
        this.then(async () => {
          await pc.setRemoteDescription({ type: "offer", sdp: offer });
          const made = await pc.createAnswer();
          await pc.setLocalDescription(made);
          this.send(peer, { Answer: made.sdp });
        });
      }
    }
    open(channel) {
      channel.binaryType = "arraybuffer";
      this.channel = channel;
      channel.onopen = () => {
        if (this.started || this.bt.stopped) return;
        try {
          this.bt.check(this.bt.ex.bt_net_start(this.player), "netplay");
          this.started = true;
          this.showStatus();
        } catch (e) {
          this.say(`bt: ${e.message}`);
        }
      };
      channel.onmessage = (e) => {
        if (this.bt.stopped || !(e.data instanceof ArrayBuffer)) return;
        this.bt.ex.bt_net_receive(this.bt.putBytes(new Uint8Array(e.data)));
      };
    }
    /// After a frame: what the session sends, each datagram one message.
    flush() {
      const bt = this.bt;
      // A u32 comes back from WebAssembly as a signed number: none waits is -1 here.
      while ((bt.ex.bt_net_take() >>> 0) !== 0xffffffff) {
        const bytes = bt.outBytes();
        if (this.channel && this.channel.readyState === "open") this.channel.send(bytes);
      }
    }
    /// Why the session ended, for the page's last screen.
    ended() {
      clearInterval(this.statusTimer);
      this.showStatus();
      return this.said;
    }
  }

  function query() {
    const q = new URLSearchParams(location.search);
    const args = q.getAll("arg").map((a) => {
      // One argument is one line of the boot text: a line break in one could start a line
      // of its own, even a replay, so none is taken.
      if (/[\r\n]/.test(a)) {
        throw new Error(`the address's arg=${JSON.stringify(a)} holds a line break; ` +
          "a cart argument is name=value on one line");
      }
      const i = a.indexOf("=");
      return i < 0 ? [a, ""] : [a.slice(0, i), a.slice(i + 1)];
    });
    return { at: q.get("at"), wav: q.get("wav"), replay: q.get("replay"), args,
      room: q.get("room"), signal: q.get("signal"), stun: q.get("stun") };
  }

  function status(text) {
    const el = document.getElementById("bt-status");
    if (el) el.textContent = text;
  }

  /// Plays `options.name` from `options.wasm` in `options.canvas`.
  async function start(options) {
    const canvas = options.canvas || document.getElementById("bt-screen");
    const api = { ready: false, error: null, frames: 0, captures: 0, name: options.name };
    window.bt = api;
    try {
      const q = query();
      const replayText = q.replay === null ? null : await (await fetch(q.replay)).text();
      // The test hooks draw as `bt shot` does: no overlay, nor its toggle corner.
      let flags = q.at !== null || q.wav !== null ? BOOT_NO_OVERLAY : 0;
      // Only the player's own run reads and keeps their save data: not a test hook's, nor a
      // replay's (which carries its own), nor a run whose arguments a link chose (a link
      // someone sent must not change the player's saved game).
      // A page that plays over the network reads none either: both pages boot alike.
      const own = q.at === null && q.wav === null && q.replay === null && q.args.length === 0 &&
        q.room === null;
      if (own) flags |= BOOT_PLAYER_SAVE;
      const netplay = q.room !== null && q.at === null && q.wav === null;
      if (netplay) {
        if (q.replay !== null) throw new Error("?room plays over the network; it takes no ?replay");
        flags |= BOOT_NETPLAY;
      }
      // The cart's init sees the browser's reduced-motion preference; changes follow as events.
      if (matchMedia(REDUCED_MOTION_QUERY).matches) flags |= BOOT_REDUCED_MOTION;
      const bt = await boot(options.wasm, (options.args || []).concat(q.args), replayText, flags);
      api.console = bt;
      // The tab shows the cart's title (its settings'), not the name of its crate.
      if (bt.ex.bt_title()) document.title = bt.outText();
      // A panic stops the cart: its message goes where the page's failures go.
      bt.onStop = (why) => {
        api.error = why;
        status(`bt: ${why}`);
        console.error(`bt: ${why}`);
      };
      api.replay = () => { bt.ex.bt_replay(); return bt.outText(); };
      api.ticks = () => bt.ex.bt_ticks();
      // What the cart says a test should know (`Cart::test_state`): its JSON parsed, other
      // text as it is, null when it offers none.
      api.testState = () => {
        if (bt.ex.bt_test_state() === 0xffffffff) return null;
        const text = bt.outText();
        try { return JSON.parse(text); } catch { return text; }
      };
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
      if (netplay) {
        const net = new Netplay(bt, q.room, q.signal, q.stun);
        api.net = {
          confirmed: () => bt.ex.bt_net_confirmed(),
          status: () => net.said,
          player: () => net.player,
          started: () => net.started,
          link: net,
        };
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
  /// out of it as 16-bit samples, left and right interleaved as in a stereo WAV file.
  async function offlineWav(bt, seconds, workletUrl, fps) {
    bt.check(bt.ex.bt_wav(seconds), `wav=${seconds}`);
    const samples = bt.samples().slice();
    const rate = bt.ex.bt_sample_rate();
    const context = new OfflineAudioContext(2, samples.length >> 1, rate);
    await context.audioWorklet.addModule(workletUrl);
    const node = new AudioWorkletNode(context, "bt-sound", {
      numberOfInputs: 0,
      outputChannelCount: [2],
      processorOptions: { rate, fps, live: false },
    });
    node.connect(context.destination);
    const queued = new Promise((resolve) => { node.port.onmessage = resolve; });
    node.port.postMessage(samples, [samples.buffer]);
    await queued;
    const rendered = await context.startRendering();
    const left = rendered.getChannelData(0);
    const right = rendered.getChannelData(1);
    const out = new Array(left.length * 2);
    for (let i = 0; i < left.length; i++) {
      out[2 * i] = Math.round(left[i] * 32768);
      out[2 * i + 1] = Math.round(right[i] * 32768);
    }
    return out;
  }

  function play(bt, screen, api, options) {
    const speaker = new Speaker(bt, bt.ex.bt_target_fps(), options.worklet || "bt-audio.js");
    const pads = new Pads(bt);
    const name = options.name;
    const startSound = () => { speaker.start().catch((e) => status(`bt: no sound (${e})`)); };
    const live = () => !bt.stopped && !api.ended;
    let pending = 0;

    // The player's save data: the module says when there is some to keep, and where.
    const saveKey = bt.ex.bt_save_key() ? bt.outText() : null;
    api.saveKey = saveKey;
    api.saves = 0;
    const keepSave = () => {
      if (!bt.ex.bt_take_save() || saveKey === null) return;
      try {
        storage.set(saveKey, bt.outBytes());
        api.saves += 1;
      } catch (e) {
        bt.ex.bt_save_failed(bt.put(e && e.name ? `${e.name}: ${e.message}` : String(e)));
        screen.paint();
      }
    };
    // The browser may close a hidden page without another word: what changed is kept now.
    const flush = () => {
      if (live() && bt.ex.bt_flush()) keepSave();
    };
    addEventListener("pagehide", flush);

    // The run ended (the cart quit, or Quit in the pause menu): its last save data is kept,
    // the loop and the sound stop, and the page says so.
    api.ended = false;
    const end = () => {
      if (api.ended) return;
      keepSave();
      api.ended = true;
      if (pending) cancelAnimationFrame(pending);
      pending = 0;
      touch.release();
      touch.root.hidden = true;
      speaker.hidden(true);
      endScreen(api.net ? api.net.link.ended() : null);
    };

    // A state as a file: Shift+F3 downloads one; Shift+F4 opens this picker, and a file
    // dropped anywhere on the page loads too. The module refuses one of another build, cart or
    // run, and the page's foot says why until a file loads.
    const picker = document.createElement("input");
    picker.type = "file";
    picker.id = "bt-state-file";
    picker.accept = ".btstate,application/json";
    picker.hidden = true;
    document.body.append(picker);
    // Whether the page's foot says why a state file was refused (a loaded one clears it).
    let refusal = false;
    const act = (action) => {
      switch (action) {
        case ACTION_FULLSCREEN:
          if (document.fullscreenElement) document.exitFullscreen();
          else document.documentElement.requestFullscreen().catch(() => {});
          break;
        case ACTION_PNG: download(`${name}.png`, bt.outBytes(), "image/png"); break;
        case ACTION_TIMINGS: download(`${name}-timings.json`, bt.outBytes(), "application/json"); break;
        case ACTION_REPLAY: download(`${name}.btr`, bt.outBytes(), "application/json"); break;
        case ACTION_QUIT: end(); break;
        case ACTION_STATE: download(`${name}.btstate`, bt.outBytes(), "application/json"); break;
        case ACTION_CHOOSE_STATE: picker.click(); break;
        case ACTION_REFUSED: {
          const why = bt.outText();
          refusal = true;
          status(`bt: ${why}`);
          console.warn(`bt: ${why}`);
          break;
        }
      }
    };
    const loadState = async (file) => {
      const text = await file.text();
      if (!live()) return;
      // The inbox holds the file's name (for messages), a line break, then its text.
      const named = `${file.name.replace(/[\r\n]/g, " ")}\n${text}`;
      const action = bt.event(EVENT.STATE_FILE, bt.put(named));
      if (action === 0 && refusal) {
        refusal = false;
        status("");
      }
      act(action);
      if (live()) screen.paint();
    };
    const loadChosen = (file) => {
      if (file && file.size > MAX_STATE_FILE) {
        refusal = true;
        status(`bt: load state file: ${file.name}: ${file.size} bytes, past the ` +
          `${MAX_STATE_FILE >> 20} MiB a replay may be`);
        return;
      }
      if (file) loadState(file).catch((e) => { if (!bt.stopped) status(`bt: load state file: ${e}`); });
    };
    picker.addEventListener("change", () => {
      const file = picker.files && picker.files[0];
      // The same file chosen again is a change too.
      picker.value = "";
      loadChosen(file);
    });
    addEventListener("dragover", (e) => {
      if (live()) e.preventDefault();
    });
    addEventListener("drop", (e) => {
      if (!live()) return;
      e.preventDefault();
      loadChosen(e.dataTransfer && e.dataTransfer.files[0]);
    });
    // A key of player one's, from the keyboard or the touch pad.
    const press = (code, down) => {
      if (!live()) return;
      startSound();
      act(bt.event(EVENT.KEY, bt.put(code), down ? 1 : 0));
      // A host key changes the picture of a paused game (the overlay, a step, the menu).
      if (live()) screen.paint();
    };
    const key = (event, down) => {
      if (event.ctrlKey || event.metaKey || BROWSER_KEYS.has(event.code) || !live()) return;
      event.preventDefault();
      if (event.repeat) return;
      press(event.code, down);
      if (live() && down && event.key.length === 1 && !/^F\d+$/.test(event.code) &&
          event.code !== "Backquote") {
        bt.event(EVENT.TEXT, bt.put(event.key));
      }
    };
    addEventListener("keydown", (e) => key(e, true));
    addEventListener("keyup", (e) => key(e, false));
    const touch = new TouchPad(press);
    api.touch = touch;
    addEventListener("blur", () => {
      if (!live()) return;
      touch.release();
      bt.event(EVENT.FOCUS_LOST);
    });
    // The player changed their reduced-motion preference: the next update sees it.
    matchMedia(REDUCED_MOTION_QUERY).addEventListener("change", (e) => {
      if (live()) bt.event(EVENT.REDUCED_MOTION, e.matches ? 1 : 0);
    });
    canvas_events(bt, screen, startSound, live);
    // The pad shows on a touch screen: at once where the browser says the pointer is coarse,
    // else at the first touch.
    const showPad = () => {
      if (touch.shown || api.ended) return;
      touch.root.hidden = false;
      screen.pad = touch;
      screen.layout();
    };
    screen.pad = touch;
    if (matchMedia("(pointer: coarse)").matches) showPad();
    addEventListener("touchstart", showPad, { passive: true });

    let last = null;
    let hiddenAt = null;
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
      // The cart's pointer lock: asked for at the next click on the picture (browsers lock
      // only on a player's gesture), let go as soon as the cart no longer wants it.
      screen.lockWanted = (flags & FRAME_POINTER_LOCKED) !== 0;
      if (!screen.lockWanted && document.pointerLockElement === screen.canvas) {
        document.exitPointerLock();
      }
      const cursor = flags & FRAME_CURSOR_HIDDEN ? "none" : "";
      if (screen.canvas.style.cursor !== cursor) screen.canvas.style.cursor = cursor;
      screen.paint();
      speaker.push();
      if (api.net) api.net.link.flush();
      if (flags & FRAME_SAVE) keepSave();
      // The cart asked for pictures of this frame (`capture_frame`): a download each, as F9's.
      while (flags & FRAME_CAPTURE && bt.ex.bt_take_capture()) {
        api.captures += 1;
        download(`${name}.png`, bt.outBytes(), "image/png");
      }
      if (flags & FRAME_ENDED) {
        end();
        return;
      }
      if (last === null) api.firstFrameMs = performance.now();
      last = now;
      pending = requestAnimationFrame(tick);
    };
    document.addEventListener("visibilitychange", () => {
      if (api.ended) return;
      speaker.hidden(document.hidden);
      if (document.hidden) {
        flush();
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

  function canvas_events(bt, screen, startSound, live) {
    const canvas = screen.canvas;
    // Events after the cart stopped or the game ended go nowhere. A finger on the picture is
    // the pointer, as the mouse is.
    const on = (type, handle, options) => canvas.addEventListener(type, (e) => {
      if (live()) handle(e);
    }, options);
    // A locked pointer reports motion, in display pixels at the picture's scale, the fractions
    // carried over; its position stays where it was.
    const rest = [0, 0];
    on("pointermove", (e) => {
      if (document.pointerLockElement !== canvas) {
        bt.event(EVENT.POINTER_MOVED, ...screen.pixel(e));
        return;
      }
      rest[0] += e.movementX / screen.scale;
      rest[1] += e.movementY / screen.scale;
      const dx = Math.trunc(rest[0]);
      const dy = Math.trunc(rest[1]);
      rest[0] -= dx;
      rest[1] -= dy;
      if (dx !== 0 || dy !== 0) bt.event(EVENT.POINTER_MOTION, dx, dy);
    });
    on("pointerleave", () => {
      if (document.pointerLockElement !== canvas) bt.event(EVENT.POINTER_LEFT);
    });
    on("pointerdown", (e) => {
      startSound();
      if (screen.lockWanted && document.pointerLockElement !== canvas && canvas.requestPointerLock) {
        const asked = canvas.requestPointerLock();
        if (asked && asked.catch) asked.catch(() => {});
      }
      bt.event(EVENT.POINTER_MOVED, ...screen.pixel(e));
      bt.event(EVENT.POINTER_BUTTON, e.button, 1);
      screen.paint();
    });
    on("pointerup", (e) => bt.event(EVENT.POINTER_BUTTON, e.button, 0));
    // A finger or a pen on the picture is also a touch, in the first free touch slot.
    const touchAt = (kind) => (e) => {
      if (e.pointerType !== "mouse") bt.event(kind, e.pointerId, ...screen.pixel(e));
    };
    on("pointerdown", touchAt(EVENT.TOUCH_START));
    on("pointermove", touchAt(EVENT.TOUCH_MOVE));
    on("pointerup", touchAt(EVENT.TOUCH_END));
    on("pointercancel", touchAt(EVENT.TOUCH_END));
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    on("wheel", (e) => {
      e.preventDefault();
      const lines = e.deltaMode === 1 ? 1 : e.deltaMode === 2 ? 10 : 1 / PIXELS_PER_LINE;
      bt.event(EVENT.WHEEL, e.deltaX * lines, e.deltaY * lines);
    }, { passive: false });
  }

  return { start };
})();
