//! Live sound's two ends, the game loop's push and the device callback's fill, touch no heap
//! in steady state: the callback runs on a device thread where a stall is heard as a click.

use bt_runtime::host::live_sound::{Feeder, Playback, Puller};
use bt_test_support::CountingAlloc;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc::new();

/// A minute of frames at 60 Hz, each queueing one update's samples and the device taking two
/// buffers of `device_frames`, at `device_rate`, stereo.
fn steady_minute(device_rate: u32, device_frames: usize) -> u64 {
    let shared = Playback::new(44_100, 60.0);
    let mut feeder = Feeder::new(shared.clone());
    let mut puller = Puller::new(shared.clone(), device_rate);
    let tick: Vec<[i16; 2]> = (0..735)
        .map(|i| [(i * 37 % 2000) as i16, (i * 53 % 2000) as i16])
        .collect();
    let mut out = vec![0.0f32; device_frames * 2];
    let mut frame = |feeder: &mut Feeder, puller: &mut Puller, i: usize| {
        feeder.push(&tick);
        // Now and then a stall: eight updates at once, and time thrown away.
        if i.is_multiple_of(97) {
            for _ in 0..7 {
                feeder.push(&tick);
            }
            feeder.thrown_away(40.0);
        }
        puller.fill(&mut out, 2, 12.0);
        puller.fill(&mut out, 2, 12.0);
        if i.is_multiple_of(301) {
            shared.set_paused(!shared.is_paused());
        }
    };
    for i in 0..600 {
        frame(&mut feeder, &mut puller, i);
    }
    GLOBAL.allocations_during(|| {
        for i in 600..4200 {
            frame(&mut feeder, &mut puller, i);
        }
        std::hint::black_box(shared.stats());
    })
}

#[test]
fn pushing_and_pulling_sound_allocates_nothing() {
    assert_eq!(steady_minute(44_100, 368), 0);
}

#[test]
fn resampling_for_a_48_khz_device_allocates_nothing() {
    assert_eq!(steady_minute(48_000, 400), 0);
}

#[test]
fn the_counter_sees_an_allocation() {
    let n = GLOBAL.allocations_during(|| {
        std::hint::black_box(Playback::new(44_100, 60.0));
    });
    assert!(n > 0);
}
