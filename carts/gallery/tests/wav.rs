//! `bt wav`: the jukebox's sound against its golden hash, the same bytes under any clock, and
//! snake's sounds.

use std::path::Path;
use std::process::Command;

use bt_runtime::export::wav::{record_samples, WavChannels};
use bt_runtime::{Engine, EngineOptions};
use bt_test_support::ScratchDir;

/// FNV-1a, 64-bit: a hash that is the same on every machine and every Rust version.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The hash of `bt wav jukebox --seconds 25 --mono`'s bytes: the file BT wrote before its
/// sound had two sides, kept to the byte. After a reviewed change to the synthesiser or the
/// jukebox (listen to the file first), put the new hash here.
const JUKEBOX_WAV_HASH: u64 = 1_513_320_595_549_410_705;

fn bt_wav(args: &[&str], out: &Path) -> Vec<u8> {
    let o = Command::new(env!("CARGO_BIN_EXE_bt-test-carts"))
        .arg("wav")
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out).unwrap()
}

#[test]
fn the_jukebox_sounds_as_it_did_and_the_same_under_three_clocks() {
    let dir = ScratchDir::new("wav-jukebox");
    let out = dir.join("jukebox.wav");
    let golden = bt_wav(&["jukebox", "--seconds", "25", "--mono"], &out);
    assert_eq!(golden.len(), 44 + 25 * 44_100 * 2);
    assert_eq!(
        fnv1a(&golden),
        JUKEBOX_WAV_HASH,
        "the jukebox's sound changed: listen to {} and update the hash",
        out.display()
    );
    for clock in ["constant:7", "sequence:16,17,50,200,1", "jitter:1:90:3"] {
        let again = bt_wav(
            &["jukebox", "--seconds", "25", "--mono", "--clock", clock],
            &out,
        );
        assert!(again == golden, "under --clock {clock}");
    }
}

#[test]
fn bt_wav_writes_stereo_and_a_cart_that_never_pans_has_its_mono_file_on_both_sides() {
    let dir = ScratchDir::new("wav-stereo");
    let mono = bt_wav(&["jukebox", "--seconds", "3", "--mono"], &dir.join("m.wav"));
    let stereo = bt_wav(&["jukebox", "--seconds", "3"], &dir.join("s.wav"));
    assert_eq!(&stereo[22..24], &[2, 0], "two channels");
    assert_eq!(&stereo[32..34], &[4, 0], "four bytes a frame");
    assert_eq!(stereo.len() - 44, 2 * (mono.len() - 44));
    for (frame, sample) in stereo[44..].chunks(4).zip(mono[44..].chunks(2)) {
        assert_eq!(&frame[..2], sample);
        assert_eq!(&frame[2..], sample);
    }
}

#[test]
fn a_wav_from_later_on_is_the_tail_of_one_from_the_start() {
    let dir = ScratchDir::new("wav-from");
    let whole = bt_wav(
        &["jukebox", "--seconds", "4", "--rate", "22050"],
        &dir.join("a.wav"),
    );
    let tail = bt_wav(
        &[
            "jukebox",
            "--from",
            "1.5",
            "--seconds",
            "2.5",
            "--rate",
            "22050",
        ],
        &dir.join("b.wav"),
    );
    let skip = 44 + (1.5 * 22_050.0) as usize * 4;
    assert_eq!(&whole[skip..], &tail[44..]);
}

#[test]
fn snake_plays_its_tune_when_a_round_starts_and_its_eating_sound() {
    let cart = bt_gallery::find("snake").unwrap();
    let mut e = Engine::new(Box::new(cart.build), EngineOptions::default()).unwrap();
    let silent = record_samples(&mut e, 0.0, 1.0, None, WavChannels::Stereo).unwrap();
    assert!(silent.iter().all(|&s| s == 0), "the demo is silent");
    e.console_mut()
        .input_mut()
        .set_buttons(bt::Button::START, bt::Player::ONE, true);
    e.step(1).unwrap();
    e.console_mut().drain_frames();
    e.step(30).unwrap();
    let tune: Vec<i16> = e.console_mut().drain_samples().collect();
    assert!(
        tune.iter().any(|&s| s.abs() > 1000),
        "the round's tune plays"
    );
}
