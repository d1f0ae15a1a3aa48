//! Save data: a small block of bytes per cart that outlives the run (best scores, unlocked
//! levels, settings), read and written from `init` and `update` only.

use crate::console::Console;
use crate::Update;

/// A cart's save data: [`SaveData::CAPACITY`] bytes, all 0 until the cart writes them.
///
/// Like PICO-8's cartdata, the block is addressed two ways over the same bytes: as
/// [`SaveData::SLOTS`] numbered `i32` slots (slot `n` is bytes `4n..4n + 4`, little-endian), and
/// as raw bytes for a cart with its own layout. A slot index is a `u8` and the byte view is a
/// fixed-size array, so no read or write can fall outside the block.
///
/// The host loads the block before `init` and keeps what the cart wrote: `bt run` saves it to
/// the cart's save file when it changes, and a replay carries the block the run started with, so
/// a run that depends on it plays back the same. Only [`Update`] reaches it: `render` draws the
/// state the cart keeps, never the save data.
///
/// ```
/// use bt::host::Console;
/// use bt::Settings;
///
/// const BEST: u8 = 0;
///
/// let mut con = Console::new(&Settings::default(), 0);
/// let mut ctx = con.update_context(0);
/// assert_eq!(ctx.save().get(BEST), 0, "a new block is all zeros");
/// ctx.save_mut().set(BEST, 4200);
/// assert_eq!(ctx.save().get(BEST), 4200);
/// assert_eq!(ctx.save().bytes()[..4], 4200i32.to_le_bytes());
/// ctx.save_mut().bytes_mut()[4095] = 7;
/// assert_eq!(con.save().bytes()[4095], 7);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SaveData {
    bytes: [u8; SaveData::CAPACITY],
    /// The cart asked to change the block since the host last looked.
    pub(crate) touched: bool,
}

impl SaveData {
    /// The size of the block: 4 KiB, sixteen times PICO-8's 256 bytes: room for scores,
    /// progress and settings, small enough to copy into every replay.
    pub const CAPACITY: usize = 4096;

    /// How many `i32` slots [`SaveData::get`] and [`SaveData::set`] reach: the first 1 KiB of
    /// the block, one slot for every `u8`.
    pub const SLOTS: usize = 256;

    /// An empty block: every byte 0.
    pub const fn new() -> SaveData {
        SaveData {
            bytes: [0; SaveData::CAPACITY],
            touched: false,
        }
    }

    /// The number in `slot`: bytes `4 × slot .. 4 × slot + 4`, little-endian. 0 until written.
    pub fn get(&self, slot: u8) -> i32 {
        let at = usize::from(slot) * 4;
        let mut word = [0; 4];
        word.copy_from_slice(&self.bytes[at..at + 4]);
        i32::from_le_bytes(word)
    }

    /// Stores `value` in `slot`.
    pub fn set(&mut self, slot: u8, value: i32) {
        let at = usize::from(slot) * 4;
        self.bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
        self.touched = true;
    }

    /// The whole block.
    pub fn bytes(&self) -> &[u8; SaveData::CAPACITY] {
        &self.bytes
    }

    /// The whole block, to write in a layout of the cart's own.
    pub fn bytes_mut(&mut self) -> &mut [u8; SaveData::CAPACITY] {
        self.touched = true;
        &mut self.bytes
    }

    /// Sets every byte to 0, as a block that was never written.
    pub fn clear(&mut self) {
        self.bytes.fill(0);
        self.touched = true;
    }

    /// Whether every byte is 0.
    pub fn is_empty(&self) -> bool {
        self.bytes.iter().all(|&b| b == 0)
    }

    /// The block without its trailing zeros: what a file needs to hold to give it back.
    pub fn used(&self) -> &[u8] {
        let end = self
            .bytes
            .iter()
            .rposition(|&b| b != 0)
            .map_or(0, |i| i + 1);
        &self.bytes[..end]
    }
}

impl Default for SaveData {
    fn default() -> SaveData {
        SaveData::new()
    }
}

impl std::fmt::Debug for SaveData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaveData")
            .field("used_bytes", &self.used().len())
            .finish_non_exhaustive()
    }
}

/// Save data longer than [`SaveData::CAPACITY`], refused by [`Console::set_boot_save`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "{len} bytes of save data; a cart's save data holds at most {} bytes",
    SaveData::CAPACITY
)]
pub struct SaveTooLarge {
    /// The length offered.
    pub len: usize,
}

impl Update<'_> {
    /// The cart's save data, as the host loaded it at boot with what this run wrote since.
    pub fn save(&self) -> &SaveData {
        &self.con.save
    }

    /// The cart's save data, to change. `bt run` writes the block to the cart's save file after
    /// an update that changed it (at most about once a second, and when the run ends).
    pub fn save_mut(&mut self) -> &mut SaveData {
        &mut self.con.save
    }
}

impl Console {
    /// Sets the save data the cart boots with: `bytes`, then zeros to [`SaveData::CAPACITY`].
    /// The live block becomes the same, and [`Console::reset`] goes back to it, so a replay
    /// from the start sees what the first run saw.
    ///
    /// # Errors
    /// [`SaveTooLarge`] when `bytes` is longer than the block; nothing changes.
    pub fn set_boot_save(&mut self, bytes: &[u8]) -> Result<(), SaveTooLarge> {
        if bytes.len() > SaveData::CAPACITY {
            return Err(SaveTooLarge { len: bytes.len() });
        }
        self.boot_save.bytes.fill(0);
        self.boot_save.bytes[..bytes.len()].copy_from_slice(bytes);
        self.boot_save.touched = false;
        self.save.clone_from(&self.boot_save);
        Ok(())
    }

    /// The save data the cart booted with.
    pub fn boot_save(&self) -> &SaveData {
        &self.boot_save
    }

    /// The save data as the cart left it.
    pub fn save(&self) -> &SaveData {
        &self.save
    }

    /// Whether the cart called a method that changes its save data since the last call (or
    /// boot); clears the flag. The bytes may still be what they were: a host that stores them
    /// compares before it writes.
    pub fn take_save_touched(&mut self) -> bool {
        std::mem::take(&mut self.save.touched)
    }

    /// Puts the live block back to the boot one, as [`Console::reset`] does.
    pub(crate) fn reset_save(&mut self) {
        self.save.bytes.copy_from_slice(&self.boot_save.bytes);
        self.save.touched = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::console::test_console;

    #[test]
    fn slots_and_bytes_are_views_of_one_block() {
        let mut save = SaveData::new();
        save.set(255, -2);
        assert_eq!(save.bytes()[1020..1024], (-2i32).to_le_bytes());
        save.bytes_mut()[0] = 1;
        assert_eq!(save.get(0), 1);
        assert_eq!(save.used().len(), 1024);
        save.clear();
        assert!(save.is_empty());
        assert_eq!(save.used(), b"");
    }

    #[test]
    fn reset_goes_back_to_the_boot_save_and_oversized_boot_data_is_refused() {
        let mut con = test_console();
        con.set_boot_save(&[9, 0, 0, 0]).unwrap();
        assert_eq!(con.update_context(0).save().get(0), 9);
        con.update_context(0).save_mut().set(0, 50);
        assert!(con.take_save_touched());
        assert!(!con.take_save_touched(), "the flag clears when read");
        con.reset(1);
        assert_eq!(con.save().get(0), 9);
        assert_eq!(
            con.set_boot_save(&[1; SaveData::CAPACITY + 1])
                .unwrap_err()
                .to_string(),
            "4097 bytes of save data; a cart's save data holds at most 4096 bytes"
        );
        assert_eq!(con.boot_save().get(0), 9, "a refused block changes nothing");
    }

    #[test]
    fn reading_save_data_marks_nothing() {
        let mut con = test_console();
        let ctx = con.update_context(0);
        let _ = ctx.save().get(3);
        assert!(!con.take_save_touched());
    }
}
