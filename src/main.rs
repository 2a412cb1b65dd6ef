use std::process::ExitCode;

fn main() -> ExitCode {
    adjudicate::app::run(adjudicate::cli::parse())
}
