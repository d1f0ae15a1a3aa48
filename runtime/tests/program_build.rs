//! A host that cannot read its program's file (a web page) hands over its bytes, and state
//! files then name that build. In a process of its own: the build is fixed once a process.

use bt_runtime::engine::{build_of_program, set_program_bytes, state_build};

#[test]
fn handed_over_bytes_name_the_build_and_fix_it_for_the_process() {
    let module = b"\0asm a page's module";
    assert!(set_program_bytes(module), "taken before any state file");
    assert_eq!(state_build(), build_of_program(module));
    assert_ne!(
        build_of_program(module),
        build_of_program(b"\0asm another build"),
        "another module is another build"
    );
    assert!(!set_program_bytes(b"\0asm later"), "the build is fixed");
    assert_eq!(state_build(), build_of_program(module));
}
