//! `bt-test-carts`: the `bt` command line with the example carts and the hidden carts BT's own
//! tests run (`drift`, `panic`, `tone`, `tally`). The tests drive this binary; users get `bt`,
//! which carries none of the four.

fn main() -> std::process::ExitCode {
    bt_runtime::cli::gallery(bt_gallery::WITH_TEST_CARTS)
}
