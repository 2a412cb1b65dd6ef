use std::process::ExitCode;

fn main() -> ExitCode {
    adjudicate::commands::main()
}
