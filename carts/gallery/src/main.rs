//! `bt`: the command line with every example cart bundled.

fn main() -> std::process::ExitCode {
    bt_runtime::cli::gallery(bt_gallery::CARTS)
}
