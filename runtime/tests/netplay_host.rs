//! The host of a netplay run, driven headless as the window drives it: its frames come from
//! outside (`Host::frame_by`), the keys that would take this peer's run away from the other's
//! do nothing, and its recording holds only the updates every player's input is known for.

use bt::host::TickInput;
use bt::{Cart, Key, Render, Update};
use bt_runtime::host::keymap::KeyMap;
use bt_runtime::host::{FileKind, Host, HostAction, HostEvent, NETPLAY_OFF_KEYS};
use bt_runtime::replay::Replay;
use bt_runtime::{Engine, EngineOptions};

/// A dot that moves on every update: its picture is its state.
#[derive(Debug, Clone, Default)]
struct Dot {
    x: i32,
}

impl Cart for Dot {
    fn update(&mut self, _ctx: &mut Update<'_>) {
        self.x = (self.x + 1) % 64;
    }

    fn render(&self, ctx: &mut Render<'_>) {
        ctx.clear(0);
        ctx.draw_pixel(self.x, 0, 8);
    }

    fn snapshot(&self) -> Option<Box<dyn Cart>> {
        Some(Box::new(self.clone()))
    }
}

fn netplay_host() -> Host {
    let options = EngineOptions {
        settings: Some(bt::Settings::default().display(64, 64)),
        ..EngineOptions::default()
    };
    let engine = Engine::new(
        Box::new(|| Box::new(Dot::default()) as Box<dyn Cart>),
        options,
    )
    .unwrap();
    let mut host = Host::new(engine, KeyMap::default(), "dot");
    host.set_netplay();
    host
}

/// One netplay frame: one update with idle input, then the newest state shown.
fn frame(host: &mut Host) {
    host.frame_by(|engine| {
        engine.update_with(&TickInput::default()).unwrap();
        engine.show().unwrap();
    });
}

fn tap(host: &mut Host, key: Key) -> Option<HostAction> {
    let action = host.handle(HostEvent::Key { key, down: true });
    host.handle(HostEvent::Key { key, down: false });
    action
}

#[test]
fn in_netplay_the_keys_that_would_set_the_runs_apart_do_nothing() {
    let mut host = netplay_host();
    for _ in 0..5 {
        frame(&mut host);
    }
    for key in NETPLAY_OFF_KEYS.into_iter().chain([Key::KeyP]) {
        assert_eq!(tap(&mut host, key), None, "{key:?}");
        assert!(!host.is_paused(), "{key:?} paused the run");
        assert!(!host.is_rewinding(), "{key:?} rewinds");
        assert!(!host.menu_is_open(), "{key:?} opened the menu");
    }
    assert_eq!(host.engine().updates_since_init(), 5);
    assert!(host.take_outbox().is_empty(), "no file made");
    // The overlay and quitting still work.
    assert_eq!(
        tap(&mut host, Key::Backquote),
        Some(HostAction::OverlayToggled)
    );
    host.handle(HostEvent::Key {
        key: Key::ControlLeft,
        down: true,
    });
    assert_eq!(tap(&mut host, Key::KeyQ), Some(HostAction::Quit));
    assert!(host.quit_requested());
}

#[test]
fn a_netplay_recording_holds_only_the_confirmed_updates() {
    let mut host = netplay_host();
    let dir = bt_test_support::ScratchDir::new("netplay-host");
    host.record_to(dir.join("run.btr"), None);
    for _ in 0..10 {
        frame(&mut host);
    }
    // The other player's input is known through update 6; 7 to 10 were played on a guess.
    host.confirm_through(6);
    host.finish();
    let files = host.take_outbox();
    let recording = files
        .iter()
        .find(|f| matches!(f.kind, FileKind::Recording { .. }))
        .expect("the recording");
    assert!(matches!(recording.kind, FileKind::Recording { updates: 6 }));
    let replay = Replay::from_json(
        std::str::from_utf8(&recording.bytes).unwrap(),
        std::path::Path::new("run.btr"),
    )
    .unwrap();
    assert_eq!(replay.ticks(), 6);
    assert!(replay.hashes().iter().all(|&(at, _)| at <= 6));
}
