//! Helpers shared by BT's own tests, not published: a global allocator that counts this
//! thread's allocations, scratch folders that remove themselves, the golden-picture check
//! ([`golden`], the same rule as the harness's), and the banner a test prints when it cannot
//! run here.
//!
//! A test file that checks for allocations installs the allocator itself:
//!
//! ```
//! use bt_test_support::CountingAlloc;
//!
//! #[global_allocator]
//! static A: CountingAlloc = CountingAlloc::new();
//!
//! fn main() {
//!     let n = A.allocations_during(|| {
//!         std::hint::black_box(Vec::<u8>::with_capacity(16));
//!     });
//!     assert_eq!(n, 1);
//! }
//! ```
#![deny(missing_docs)]
// Implementing `GlobalAlloc` takes `unsafe impl` and `unsafe fn`: the workspace denies unsafe
// code, and this crate alone allows it, for the allocator and nothing else.
#![allow(
    unsafe_code,
    reason = "a global allocator is an unsafe trait; every use is commented with its SAFETY"
)]

pub use bt_host::harness::golden;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

thread_local! {
    /// Allocations and reallocations made by this thread. `const`-initialised, so reading it
    /// never allocates (which, from inside the allocator, would recurse).
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    /// Bytes this thread allocated less those it freed (memory freed here that another thread
    /// allocated counts against it).
    static LIVE_BYTES: Cell<i64> = const { Cell::new(0) };
    /// The most [`LIVE_BYTES`] has reached since [`CountingAlloc::peak_bytes_during`] last
    /// started counting.
    static PEAK_BYTES: Cell<i64> = const { Cell::new(0) };
}

/// Adds `bytes` (negative: freed) to this thread's live bytes, and keeps their peak.
fn count_bytes(bytes: i64) {
    let _ = LIVE_BYTES.try_with(|n| {
        n.set(n.get() + bytes);
        let _ = PEAK_BYTES.try_with(|p| p.set(p.get().max(n.get())));
    });
}

/// Counts one allocation on this thread. `try_with`, because a thread that is shutting down
/// still allocates and frees after its thread-locals are gone; those calls are simply not
/// counted, where `with` would panic inside the allocator.
fn count_one() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

/// A global allocator that forwards every call to the system allocator and counts, per thread,
/// every allocation and reallocation, so work on other test threads cannot disturb a count.
///
/// Install it in a test file with `#[global_allocator]`; then
/// [`CountingAlloc::allocations_during`] says how many allocations a piece of code made. The
/// count lives in one thread-local shared by every value of the type (a program has one global
/// allocator), and reads 0 where the allocator is not installed: a test should also check that
/// the counter sees an allocation it makes on purpose.
#[derive(Debug, Default)]
pub struct CountingAlloc {
    _private: (),
}

impl CountingAlloc {
    /// The allocator, for a `static`.
    pub const fn new() -> CountingAlloc {
        CountingAlloc { _private: () }
    }

    /// Allocations and reallocations this thread has made so far (0 after its thread-locals
    /// are gone).
    pub fn allocations(&self) -> u64 {
        ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
    }

    /// Bytes this thread allocated and has not freed, counted since it started (0 where the
    /// allocator is not installed): how much memory a structure built on this thread holds.
    pub fn live_bytes(&self) -> i64 {
        LIVE_BYTES.try_with(Cell::get).unwrap_or(0)
    }

    /// The most bytes this thread held at once while running `f`, over what it held before:
    /// the memory `f` needed at its peak, what it returns included.
    pub fn peak_bytes_during<T>(&self, f: impl FnOnce() -> T) -> (T, i64) {
        let before = self.live_bytes();
        let _ = PEAK_BYTES.try_with(|p| p.set(before));
        let value = f();
        (
            value,
            PEAK_BYTES.try_with(Cell::get).unwrap_or(before) - before,
        )
    }

    /// How many allocations and reallocations this thread made while running `f`.
    pub fn allocations_during(&self, f: impl FnOnce()) -> u64 {
        let before = self.allocations();
        f();
        self.allocations() - before
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator, which upholds the
// `GlobalAlloc` contract; the only addition is a thread-local counter that neither allocates
// nor unwinds.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        count_bytes(layout.size() as i64);
        // SAFETY: the caller's contract for `alloc` (a non-zero-size layout) is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        count_bytes(layout.size() as i64);
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count_bytes(-(layout.size() as i64));
        // SAFETY: `ptr` came from the system allocator through this wrapper, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        count_bytes(new_size as i64 - layout.size() as i64);
        // SAFETY: as for `dealloc`, and the caller's contract for `realloc` is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// A folder of its own under the system's temp folder, removed with everything in it when
/// dropped, so tests running side by side never share or delete each other's files.
///
/// Dropped while its thread panics (a failing test), the folder is kept and its path printed,
/// so the files the failure message points to can still be looked at.
///
/// ```
/// let dir = bt_test_support::ScratchDir::new("example");
/// std::fs::write(dir.join("note.txt"), "hi").unwrap();
/// let path = dir.path().to_path_buf();
/// drop(dir);
/// assert!(!path.exists());
/// ```
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
}

impl ScratchDir {
    /// Makes an empty folder named after `tag`, the process and a counter:
    /// `bt-<tag>-<pid>-<n>`.
    ///
    /// # Panics
    /// When the folder cannot be made: a test cannot go on without it.
    pub fn new(tag: &str) -> ScratchDir {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("bt-{tag}-{}-{n}", std::process::id()));
        // Left over from an earlier process with the same id: start empty.
        let _ = std::fs::remove_dir_all(&path);
        if let Err(e) = std::fs::create_dir_all(&path) {
            panic!("cannot make the scratch folder {}: {e}", path.display());
        }
        ScratchDir { path }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A path inside the folder.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.path.join(name)
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept the failed test's files in {}", self.path.display());
            return;
        }
        // Best effort: a file a child process still holds open must not fail the test.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A test that needs something this machine lacks (an X server, a sound server, a browser):
/// when the variable `require` is `1` the test is required and this panics; otherwise it
/// prints a banner straight to stderr, past the test harness's capture so it shows in every
/// run, and the caller returns without testing.
///
/// `what` names the test ("the real-window test of `bt run`"), `why` what is missing, and
/// `install` what to install.
///
/// # Panics
/// When `require` is set to `1`.
#[track_caller]
pub fn unavailable(what: &str, require: &str, why: &str, install: &str) {
    use std::io::Write as _;
    if std::env::var_os(require).is_some_and(|v| v == "1") {
        panic!("{what} is required ({require}=1) but {why}");
    }
    let rule = "*".repeat(70);
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n{rule}\nSKIPPED: {what} did not run: {why}.\n{install}\n{rule}\n"
    );
}

/// A writer whose bytes the test reads back: give a clone to what writes (a host's error
/// output, say) and read [`SharedOutput::text`] after.
#[derive(Debug, Clone, Default)]
pub struct SharedOutput(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl SharedOutput {
    /// Everything written so far, as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for SharedOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
