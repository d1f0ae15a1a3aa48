//! Which keys press which buttons for the two keyboard players, and the user's TOML file that
//! changes it.
//!
//! The file (see `docs/input.md`) lists, per player, the keys for any button it wants to change;
//! buttons it leaves out keep their default keys and an empty list unmaps a button:
//!
//! ```toml
//! version = 1
//!
//! [player1]
//! a = ["Space", "KeyJ"]
//! select = []
//! ```
//!
//! BT only reads this file; it never creates or rewrites it.

use std::fmt::Write as _;
use std::path::Path;
use std::path::PathBuf;

use bt::host::KeyMapTable;
use bt::limits::KEY_COUNT;
use bt::{Button, Key, KeySet};
use serde::Deserialize;
use thiserror::Error;
use toml::Spanned;

/// How many players the keyboard serves.
pub const KEYBOARD_PLAYERS: usize = 2;

/// The key-map file format this BT reads.
pub const KEYMAP_VERSION: u32 = 1;

/// The largest key-map file BT reads. A complete map written by `bt keys` is under 1 KiB; the
/// limit stops a wrong path (`/dev/zero`, a video) from being read into memory whole.
pub const MAX_KEYMAP_BYTES: u64 = 64 * 1024;

/// The most characters of the parser's message a syntax error quotes.
const MAX_MESSAGE_CHARS: usize = 160;

/// The buttons a key map can assign, with their names in the file, in file order.
pub const MAPPABLE: [(&str, u32); 12] = [
    ("up", Button::UP.bits()),
    ("down", Button::DOWN.bits()),
    ("left", Button::LEFT.bits()),
    ("right", Button::RIGHT.bits()),
    ("a", Button::A.bits()),
    ("b", Button::B.bits()),
    ("x", Button::X.bits()),
    ("y", Button::Y.bits()),
    ("l", Button::L.bits()),
    ("r", Button::R.bits()),
    ("start", Button::START.bits()),
    ("select", Button::SELECT.bits()),
];

/// Why a key-map file was refused. Every message names the file.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum KeyMapError {
    /// The file could not be read.
    #[error("key map {path}: could not read it: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Not TOML, an unknown table or field, or a value of the wrong type.
    #[error("key map {path}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The line, from 1, when known.
        line: Option<usize>,
        /// The parser's message on one line, cut short and with control characters escaped.
        message: String,
    },
    /// A format version this BT does not read.
    #[error(
        "key map {path}: version {found} is not supported (this bt reads version {KEYMAP_VERSION})"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
    },
    /// A key code that does not exist.
    #[error(
        "key map {path}, line {line}: [{table}] {field}: unknown key code '{value}' \
         (codes look like KeyW, Digit5, ArrowUp, Space, Numpad1)"
    )]
    UnknownKey {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The player table.
        table: &'static str,
        /// The button field.
        field: &'static str,
        /// The code found (cut short and with control characters escaped).
        value: String,
    },
    /// A key that the host keeps for itself.
    #[error(
        "key map {path}, line {line}: [{table}] {field}: {value} is a host key \
         (Backquote and F1 to F11 cannot be mapped)"
    )]
    HostKey {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The player table.
        table: &'static str,
        /// The button field.
        field: &'static str,
        /// The key.
        value: Key,
    },
}

/// A key that presses several buttons (see [`KeyMap::shared_keys`]). Shown as
/// `KeyW presses [player1] up and [player2] up`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedKey {
    /// The key.
    pub key: Key,
    /// What it presses: the player (0 for player 1) and the button's name in the file.
    pub presses: Vec<(usize, &'static str)>,
}

impl std::fmt::Display for SharedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} presses ", self.key.code())?;
        let last = self.presses.len().saturating_sub(1);
        for (i, (player, button)) in self.presses.iter().enumerate() {
            let joint = match i {
                0 => "",
                _ if i == last => " and ",
                _ => ", ",
            };
            write!(f, "{joint}[player{}] {button}", player + 1)?;
        }
        Ok(())
    }
}

pub use bt::host::HOST_KEYS;

/// For every key, the buttons it holds for each keyboard player; and, for a map read from a
/// file, which buttons the file listed (those a cart's own map does not change, see
/// [`KeyMap::with_cart_map`]).
#[derive(Debug, Clone)]
pub struct KeyMap {
    buttons: [[u32; KEYBOARD_PLAYERS]; KEY_COUNT],
    /// Per player, the buttons a key-map file listed.
    listed: [u32; KEYBOARD_PLAYERS],
}

impl PartialEq for KeyMap {
    /// Two maps are equal when every key presses the same buttons, whichever file they came
    /// from.
    fn eq(&self, other: &KeyMap) -> bool {
        self.buttons == other.buttons
    }
}

impl Eq for KeyMap {}

impl Default for KeyMap {
    /// The defaults of [`KeyMapTable`]: player 1 on the arrows with Z, C, N or Space for A
    /// and X, V or M for B, Enter for Start and Escape for Select; player 2 on W A S D with F
    /// for A, G for B and Tab for Start.
    fn default() -> KeyMap {
        KeyMap::from_table(&KeyMapTable::default())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    version: u32,
    player1: Option<RawPlayer>,
    player2: Option<RawPlayer>,
}

type RawKeys = Option<Vec<Spanned<String>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    up: RawKeys,
    down: RawKeys,
    left: RawKeys,
    right: RawKeys,
    a: RawKeys,
    b: RawKeys,
    x: RawKeys,
    y: RawKeys,
    l: RawKeys,
    r: RawKeys,
    start: RawKeys,
    select: RawKeys,
}

impl RawPlayer {
    fn fields(self) -> [RawKeys; 12] {
        [
            self.up,
            self.down,
            self.left,
            self.right,
            self.a,
            self.b,
            self.x,
            self.y,
            self.l,
            self.r,
            self.start,
            self.select,
        ]
    }
}

impl KeyMap {
    /// A map in which no key presses anything.
    pub fn empty() -> KeyMap {
        KeyMap {
            buttons: [[0; KEYBOARD_PLAYERS]; KEY_COUNT],
            listed: [0; KEYBOARD_PLAYERS],
        }
    }

    /// The map a table gives (a cart's, or the defaults), listing no button.
    pub fn from_table(table: &KeyMapTable) -> KeyMap {
        let mut map = KeyMap::empty();
        for player in 0..KEYBOARD_PLAYERS {
            for (b, &(_, button)) in MAPPABLE.iter().enumerate() {
                map.assign_set(player, button, table.keys_at(player, b));
            }
        }
        map
    }

    /// The map to play with when the cart's own map is `cart` and this is the player's: the
    /// cart's keys, except for the buttons the player's key-map file listed, which keep the
    /// file's keys. A map of no file (the defaults) lists none, and gives `cart` as it is.
    pub fn with_cart_map(&self, cart: &KeyMapTable) -> KeyMap {
        let mut map = KeyMap::from_table(cart);
        for player in 0..KEYBOARD_PLAYERS {
            for &(_, button) in &MAPPABLE {
                if self.listed[player] & button != 0 {
                    map.assign_set(player, button, self.keys_of(player, button));
                }
            }
        }
        map.listed = self.listed;
        map
    }

    /// The keys that press `button` (one bit) for `player`.
    fn keys_of(&self, player: usize, button: u32) -> KeySet {
        let mut bits = 0u128;
        for (k, row) in self.buttons.iter().enumerate() {
            if row.get(player).is_some_and(|b| b & button != 0) {
                bits |= 1 << k;
            }
        }
        KeySet::from_bits(bits)
    }

    /// Makes the keys of `keys` the only keys for `button` of `player`.
    fn assign_set(&mut self, player: usize, button: u32, keys: KeySet) {
        if player >= KEYBOARD_PLAYERS {
            return;
        }
        for row in &mut self.buttons {
            row[player] &= !button;
        }
        for k in keys.iter() {
            self.buttons[k as usize][player] |= button;
        }
    }

    /// The buttons `key` holds for `player` (0 for other players).
    pub fn buttons(&self, key: Key, player: usize) -> u32 {
        self.buttons[key as usize].get(player).copied().unwrap_or(0)
    }

    /// The buttons `player` holds when the keys of the set `held` are down (bit `k` is
    /// `Key::ALL[k]`).
    pub fn held_buttons(&self, held: u128, player: usize) -> u32 {
        let mut mask = 0;
        let mut m = held;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            if let Some(row) = self.buttons.get(i) {
                mask |= row.get(player).copied().unwrap_or(0);
            }
            m &= m - 1;
        }
        mask
    }

    /// Makes `keys` the only keys for `button` of `player`.
    pub fn assign(&mut self, player: usize, button: u32, keys: &[Key]) {
        self.assign_set(player, button, KeySet::from_keys(keys));
    }

    /// The defaults with a key-map file's changes applied. `path` only names the file in errors.
    ///
    /// # Errors
    /// [`KeyMapError::Syntax`], [`KeyMapError::Version`], [`KeyMapError::UnknownKey`] or
    /// [`KeyMapError::HostKey`], naming the file, and where known the line, table, field and value.
    pub fn from_toml(text: &str, path: &Path) -> Result<KeyMap, KeyMapError> {
        let raw: RawFile = toml::from_str(text).map_err(|e| KeyMapError::Syntax {
            path: path.to_path_buf(),
            line: e.span().map(|span| line_of(text, span.start)),
            message: one_line(e.message()),
        })?;
        if raw.version != KEYMAP_VERSION {
            return Err(KeyMapError::Version {
                path: path.to_path_buf(),
                found: raw.version,
            });
        }
        let mut map = KeyMap::default();
        let tables = [("player1", raw.player1), ("player2", raw.player2)];
        for (player, (table, raw_player)) in tables.into_iter().enumerate() {
            let Some(raw_player) = raw_player else {
                continue;
            };
            for ((field, button), keys) in MAPPABLE.iter().zip(raw_player.fields()) {
                let Some(keys) = keys else { continue };
                let mut parsed = Vec::with_capacity(keys.len());
                for code in keys {
                    // The line is worked out only for an error: counting newlines up to every
                    // code would make a long file quadratic to read.
                    let line = || line_of(text, code.span().start);
                    let key =
                        Key::from_code(code.get_ref()).ok_or_else(|| KeyMapError::UnknownKey {
                            path: path.to_path_buf(),
                            line: line(),
                            table,
                            field,
                            value: crate::quote::excerpt(code.get_ref()),
                        })?;
                    if HOST_KEYS.contains(&key) {
                        return Err(KeyMapError::HostKey {
                            path: path.to_path_buf(),
                            line: line(),
                            table,
                            field,
                            value: key,
                        });
                    }
                    parsed.push(key);
                }
                map.assign(player, *button, &parsed);
                map.listed[player] |= button;
            }
        }
        Ok(map)
    }

    /// Reads a key-map file, up to [`MAX_KEYMAP_BYTES`], through
    /// [`crate::config::read::read_file`]: a FIFO or a device is refused, never waited on.
    ///
    /// # Errors
    /// [`KeyMapError::Read`] when it cannot be read (over the limit too) or is not UTF-8, else
    /// as [`KeyMap::from_toml`].
    pub fn load(path: &Path) -> Result<KeyMap, KeyMapError> {
        use crate::config::read::read_file;
        let read = |source| KeyMapError::Read {
            path: path.to_path_buf(),
            source,
        };
        let bytes = read_file(path, MAX_KEYMAP_BYTES).map_err(|e| read(e.into_io()))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            read(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "not UTF-8 text (line {})",
                    line_of_bytes(e.as_bytes(), e.utf8_error().valid_up_to())
                ),
            ))
        })?;
        KeyMap::from_toml(&text, path)
    }

    /// Every key that presses more than one button, for one player or across both, with the
    /// buttons it presses: usually a slip in a key-map file, worth a warning.
    pub fn shared_keys(&self) -> Vec<SharedKey> {
        let mut shared = Vec::new();
        for &key in Key::ALL.iter() {
            let presses: Vec<(usize, &'static str)> = (0..KEYBOARD_PLAYERS)
                .flat_map(|player| {
                    MAPPABLE
                        .iter()
                        .filter(move |(_, button)| self.buttons(key, player) & button != 0)
                        .map(move |(field, _)| (player, *field))
                })
                .collect();
            if presses.len() > 1 {
                shared.push(SharedKey { key, presses });
            }
        }
        shared
    }

    /// The map written out as a complete key-map file.
    pub fn to_toml(&self) -> String {
        let mut out = format!(
            "# BT key map: the keys that press each button, per keyboard player.\n\
             # Buttons left out keep their default keys; [] unmaps a button.\n\
             version = {KEYMAP_VERSION}\n"
        );
        for player in 0..KEYBOARD_PLAYERS {
            let _ = write!(out, "\n[player{}]\n", player + 1);
            for (field, button) in MAPPABLE {
                let codes: Vec<String> = Key::ALL
                    .iter()
                    .filter(|&&k| self.buttons(k, player) & button != 0)
                    .map(|k| format!("\"{}\"", k.code()))
                    .collect();
                let _ = writeln!(out, "{field} = [{}]", codes.join(", "));
            }
        }
        out
    }
}

fn line_of(text: &str, byte: usize) -> usize {
    line_of_bytes(text.as_bytes(), byte)
}

fn line_of_bytes(bytes: &[u8], byte: usize) -> usize {
    bytes.iter().take(byte).filter(|&&b| b == b'\n').count() + 1
}

/// The parser's message as one short line that cannot carry raw control characters.
fn one_line(message: &str) -> String {
    let joined = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    crate::quote::excerpt_chars(&joined, MAX_MESSAGE_CHARS)
}

/// Where BT looks for the user's key map: `keys.toml` in the folder of the user's BT files,
/// [`crate::config::manifest::user_config_dir`] (`$XDG_CONFIG_HOME/bt` when absolute, else
/// `$HOME/.config/bt`). `None` when there is no such folder.
pub fn default_path() -> Option<PathBuf> {
    crate::config::manifest::user_config_dir().map(|dir| dir.join("keys.toml"))
}

/// Where the key map [`load_chosen`] returned came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMapSource {
    /// A file: the one the player named, else the one at [`default_path`].
    File(PathBuf),
    /// No file: the built-in defaults. `looked_at` is the default path that held no file, or
    /// `None` when there is no default path to look at.
    Defaults {
        /// The default path looked at, when there was one.
        looked_at: Option<PathBuf>,
    },
}

/// The key map to play with: the file `explicit` names, else the user's file at
/// [`default_path`] when it exists, else the defaults. Says which it was.
///
/// # Errors
/// A [`KeyMapError`] naming the file when the chosen file cannot be read or is invalid. A
/// missing default file is no error; a missing `explicit` file is.
pub fn load_chosen(explicit: Option<&Path>) -> Result<(KeyMap, KeyMapSource), KeyMapError> {
    choose(explicit, default_path())
}

/// [`load_chosen`] with the default path given, so tests need not change the environment.
fn choose(
    explicit: Option<&Path>,
    default: Option<PathBuf>,
) -> Result<(KeyMap, KeyMapSource), KeyMapError> {
    let path = match (explicit, default) {
        (Some(path), _) => path.to_path_buf(),
        (None, Some(path)) if path.exists() => path,
        (None, looked_at) => return Ok((KeyMap::default(), KeyMapSource::Defaults { looked_at })),
    };
    let map = KeyMap::load(&path)?;
    Ok((map, KeyMapSource::File(path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<KeyMap, String> {
        KeyMap::from_toml(text, Path::new("/home/u/.config/bt/keys.toml"))
            .map_err(|e| e.to_string())
    }

    fn set(keys: &[Key]) -> u128 {
        keys.iter().fold(0, |m, &k| m | 1u128 << (k as u8))
    }

    #[test]
    fn defaults_give_two_players() {
        let m = KeyMap::default();
        assert_eq!(m.buttons(Key::ArrowUp, 0), Button::UP.bits());
        assert_eq!(m.buttons(Key::ArrowUp, 1), 0);
        assert_eq!(m.buttons(Key::KeyW, 1), Button::UP.bits());
        assert_eq!(
            m.held_buttons(set(&[Key::KeyZ, Key::ArrowRight]), 0),
            Button::A.bits() | Button::RIGHT.bits()
        );
        assert_eq!(m.held_buttons(set(&[Key::KeyX]), 0), Button::B.bits());
        assert_eq!(m.held_buttons(set(&[Key::KeyG]), 1), Button::B.bits());
    }

    #[test]
    fn a_file_changes_only_what_it_lists() {
        let m = parse(
            "version = 1\n[player1]\na = [\"KeyJ\", \"KeyK\"]\nselect = []\n[player2]\nx = [\"Numpad4\"]\n",
        )
        .unwrap();
        assert_eq!(m.buttons(Key::KeyJ, 0), Button::A.bits());
        assert_eq!(m.buttons(Key::Space, 0), 0, "replaced");
        assert_eq!(m.buttons(Key::Escape, 0), 0, "unmapped");
        assert_eq!(m.buttons(Key::ArrowUp, 0), Button::UP.bits(), "untouched");
        assert_eq!(m.buttons(Key::Numpad4, 1), Button::X.bits());
    }

    #[test]
    fn the_written_map_reads_back_the_same() {
        let mut m = KeyMap::default();
        m.assign(1, Button::L.bits(), &[Key::KeyQ, Key::PageUp]);
        assert_eq!(parse(&m.to_toml()).unwrap(), m);
    }

    #[test]
    fn errors_name_the_file_line_field_and_value() {
        let e = parse("version = 1\n\n[player2]\nb = [\"Quote\", \"KeyQQ\"]\n").unwrap_err();
        assert_eq!(
            e,
            "key map /home/u/.config/bt/keys.toml, line 4: [player2] b: unknown key code 'KeyQQ' \
             (codes look like KeyW, Digit5, ArrowUp, Space, Numpad1)"
        );
        let e = parse("version = 1\n[player1]\njump = [\"Space\"]\n").unwrap_err();
        assert!(
            e.contains("keys.toml") && e.contains("jump") && e.contains("line 3"),
            "{e}"
        );
        let e = parse("version = 2\n").unwrap_err();
        assert!(e.contains("version 2 is not supported"), "{e}");
        let e = parse("[player1]\nup = [\"KeyW\"]\n").unwrap_err();
        assert!(e.contains("version"), "{e}");
        let e = parse("version = 1\n[player1]\nup = \"KeyW\"\n").unwrap_err();
        assert!(
            e.contains("line 3") && e.contains("expected a sequence"),
            "{e}"
        );
        let e = parse("version = 1\n[player1]\nstart = [\"F5\"]\n").unwrap_err();
        assert!(e.contains("F5 is a host key"), "{e}");
        let e = KeyMap::load(Path::new("/nonexistent/keys.toml")).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("key map /nonexistent/keys.toml: could not read it"));
    }

    #[test]
    fn keys_pressing_several_buttons_are_found() {
        assert!(KeyMap::default().shared_keys().is_empty());
        let m = parse("version = 1\n[player1]\na = [\"KeyJ\"]\nb = [\"KeyJ\"]\nx = [\"KeyJ\"]\n")
            .unwrap();
        let shared = m.shared_keys();
        assert_eq!(shared.len(), 1);
        assert_eq!(
            shared[0].to_string(),
            "KeyJ presses [player1] a, [player1] b and [player1] x"
        );
    }

    #[test]
    fn a_key_map_over_the_size_limit_is_refused_unread() {
        let dir = bt_test_support::ScratchDir::new("keymap");
        let big = dir.join("big.toml");
        let mut text = "version = 1\n".to_string();
        text.push_str(&"# padding\n".repeat(7000));
        std::fs::write(&big, &text).unwrap();
        let e = KeyMap::load(&big).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "key map {}: could not read it: 70012 bytes is over the limit of 65536 bytes",
                big.display()
            )
        );
        // Under the limit it reads.
        std::fs::write(&big, &text[..60_000]).unwrap();
        assert!(KeyMap::load(&big).is_ok());
    }

    #[test]
    fn a_bad_line_is_quoted_short_and_escaped() {
        let long = format!(
            "version = 1\n[player1]\na = [\"{}\"]\n",
            "\0".repeat(60_000)
        );
        let e = parse(&long).unwrap_err();
        assert!(e.len() < 300, "{} characters", e.len());
        assert!(!e.contains('\0'), "{e:?}");
        assert!(e.contains("line 3"), "{e}");
        let code = format!(
            "version = 1\n[player1]\na = [\"Key{}\"]\n",
            "Q".repeat(60_000)
        );
        let e = parse(&code).unwrap_err();
        assert!(e.len() < 300, "{} characters", e.len());
        assert!(e.contains("unknown key code 'KeyQQQ"), "{e}");
        let garbage = format!("version = 1\n{}\n", "x".repeat(60_000));
        let e = parse(&garbage).unwrap_err();
        assert!(e.len() < 300, "{} characters: {}", e.len(), &e[..200]);
        assert!(e.contains("line 2"), "{e}");
    }

    #[test]
    fn the_named_file_comes_first_then_the_default_file_then_the_defaults() {
        let dir = bt_test_support::ScratchDir::new("keymap");
        let named = dir.join("named.toml");
        let default = dir.join("keys.toml");
        std::fs::write(&named, "version = 1\n[player1]\na = [\"KeyJ\"]\n").unwrap();
        std::fs::write(&default, "version = 1\n[player1]\na = [\"KeyK\"]\n").unwrap();

        let (map, from) = choose(Some(&named), Some(default.clone())).unwrap();
        assert_eq!(
            (map.buttons(Key::KeyJ, 0), from),
            (Button::A.bits(), KeyMapSource::File(named))
        );
        let (map, from) = choose(None, Some(default.clone())).unwrap();
        assert_eq!(
            (map.buttons(Key::KeyK, 0), from),
            (Button::A.bits(), KeyMapSource::File(default.clone()))
        );
        std::fs::remove_file(&default).unwrap();

        let (map, from) = choose(None, Some(default.clone())).unwrap();
        assert_eq!(map, KeyMap::default());
        assert_eq!(
            from,
            KeyMapSource::Defaults {
                looked_at: Some(default.clone())
            }
        );
        let (_, from) = choose(None, None).unwrap();
        assert_eq!(from, KeyMapSource::Defaults { looked_at: None });
        // A file the player named must be there.
        let e = choose(Some(&dir.join("gone.toml")), Some(default)).unwrap_err();
        assert!(
            e.to_string().contains("gone.toml: could not read it"),
            "{e}"
        );
    }
}
