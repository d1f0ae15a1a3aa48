//! The helpers themselves: counting per thread, through thread teardown, and scratch folders.

use std::sync::{Arc, Barrier};

use bt_test_support::{CountingAlloc, ScratchDir};

#[global_allocator]
static A: CountingAlloc = CountingAlloc::new();

#[test]
fn counts_allocations_and_reallocations_on_this_thread_only() {
    let n = A.allocations_during(|| {
        let mut v: Vec<u8> = std::hint::black_box(Vec::with_capacity(1));
        v.extend_from_slice(std::hint::black_box(&[1, 2, 3, 4, 5, 6, 7, 8]));
        std::hint::black_box(&v);
    });
    assert_eq!(n, 2, "one allocation, one reallocation");

    // Another thread allocating all the while is not counted here ...
    let (go, done) = (Arc::new(Barrier::new(2)), Arc::new(Barrier::new(2)));
    let other = std::thread::spawn({
        let (go, done) = (Arc::clone(&go), Arc::clone(&done));
        move || {
            go.wait();
            let n = A.allocations_during(|| {
                for _ in 0..1000 {
                    std::hint::black_box(vec![0u8; 64]);
                }
            });
            done.wait();
            n
        }
    });
    let here = A.allocations_during(|| {
        go.wait();
        done.wait();
    });
    assert_eq!(here, 0);
    // ... but there.
    assert_eq!(other.join().unwrap(), 1000);
}

/// Allocates when its thread's thread-locals are torn down.
struct AllocatesOnDrop;

impl Drop for AllocatesOnDrop {
    fn drop(&mut self) {
        std::hint::black_box(vec![0u8; 64]);
    }
}

thread_local! {
    static LATE: AllocatesOnDrop = const { AllocatesOnDrop };
}

#[test]
fn allocating_in_thread_teardown_does_not_panic() {
    let ended = std::thread::spawn(|| {
        LATE.with(|_| ());
        A.allocations()
    })
    .join();
    assert!(ended.is_ok());
}

#[test]
fn scratch_folders_are_separate_and_removed_when_dropped() {
    let a = ScratchDir::new("helpers");
    let b = ScratchDir::new("helpers");
    assert_ne!(a.path(), b.path());
    assert!(a.path().is_dir() && b.path().is_dir());
    std::fs::create_dir(a.join("sub")).unwrap();
    std::fs::write(a.join("sub/file.txt"), "x").unwrap();
    let path = a.path().to_path_buf();
    drop(a);
    assert!(!path.exists());
    assert!(b.path().is_dir(), "the other folder stays");
}

#[test]
fn a_failing_test_keeps_its_scratch_folder() {
    let kept = std::thread::spawn(|| {
        let dir = ScratchDir::new("helpers-kept");
        let path = dir.path().to_path_buf();
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            let _dir = dir;
            panic!("a failing test");
        }));
        path
    })
    .join()
    .unwrap();
    assert!(kept.is_dir());
    std::fs::remove_dir_all(&kept).unwrap();
}
