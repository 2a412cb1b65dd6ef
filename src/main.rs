use std::process::ExitCode;

fn main() -> ExitCode {
    adjudicate::allocator::configure();
    adjudicate::commands::main()
}
