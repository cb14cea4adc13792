//! The `toritsume` binary: hands the command line to [`cli`].

mod cli;

fn main() {
    std::process::exit(cli::run());
}
