// BT's sound in a page: an AudioWorklet that plays the console's samples from a ring, as the
// native device callback does (runtime/src/host/live_sound.rs). The page posts each frame's
// samples (16-bit, left and right interleaved, at the console's rate, which is the context's
// rate: no resampling); the processor pulls 128 frames at a time into its two outputs. Live, it waits until two updates' worth are queued
// (priming), skips the oldest when the game has run more than three updates ahead (late sound
// is dropped, never played late), and on running dry plays silence and primes again half an
// update higher, up to four. Offline (the test hook), it plays everything queued, in order.
"use strict";

const PRIME_TICKS = 2.0;
const PRIME_STEP_TICKS = 0.5;
const PRIME_MAX_TICKS = 4.0;
const SLACK_TICKS = 3.0;
const RING_SECONDS = 2;

class BtSound extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const { rate, fps, live } = options.processorOptions;
    this.perTick = rate / fps;
    this.live = live;
    let capacity = 1;
    while (capacity < rate * RING_SECONDS) capacity *= 2;
    // Frames, left and right side by side.
    this.ring = new Float32Array(capacity * 2);
    this.mask = capacity - 1;
    this.written = 0;
    this.read = 0;
    this.prime = Math.ceil(this.perTick * PRIME_TICKS);
    this.priming = live;
    this.underruns = 0;
    this.skipped = 0;
    this.port.onmessage = (e) => this.push(e.data);
  }

  push(samples) {
    const frames = samples.length >> 1;
    let room = this.mask + 1 - (this.written - this.read);
    if (frames > room) {
      // The ring is full: the oldest make way, as late sound is not worth playing.
      this.read += frames - room;
    }
    for (let i = 0; i < frames; i++) {
      const at = ((this.written + i) & this.mask) * 2;
      this.ring[at] = samples[2 * i] / 32768;
      this.ring[at + 1] = samples[2 * i + 1] / 32768;
    }
    this.written += frames;
    if (!this.live) this.port.postMessage(this.written);
  }

  process(_inputs, outputs) {
    const left = outputs[0][0];
    // A context of one channel gets the mean of the two sides.
    const right = outputs[0][1];
    const out = left;
    let queued = this.written - this.read;
    if (this.priming) {
      if (queued < this.prime) {
        left.fill(0);
        if (right) right.fill(0);
        return true;
      }
      this.priming = false;
    }
    if (this.live && queued > this.prime + this.perTick * SLACK_TICKS) {
      const skip = queued - this.prime;
      this.read += skip;
      this.skipped += skip / this.perTick;
      queued -= skip;
    }
    const n = Math.min(out.length, queued);
    for (let i = 0; i < n; i++) {
      const at = ((this.read + i) & this.mask) * 2;
      if (right) {
        left[i] = this.ring[at];
        right[i] = this.ring[at + 1];
      } else {
        left[i] = (this.ring[at] + this.ring[at + 1]) * 0.5;
      }
    }
    this.read += n;
    if (n < out.length) {
      left.fill(0, n);
      if (right) right.fill(0, n);
      if (this.live) {
        this.underruns += 1;
        this.priming = true;
        this.prime = Math.min(
          Math.ceil(this.prime + this.perTick * PRIME_STEP_TICKS),
          Math.ceil(this.perTick * PRIME_MAX_TICKS),
        );
        this.port.postMessage({ underruns: this.underruns, skipped: this.skipped });
      }
    }
    return true;
  }
}

registerProcessor("bt-sound", BtSound);
