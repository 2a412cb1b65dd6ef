use std::process::ExitCode;

fn main() -> ExitCode {
    adjudicate::allocator::configure();
    let code = adjudicate::commands::main();
    adjudicate::allocator::finish();
    code
}
