use std::process::ExitCode;

fn main() -> ExitCode {
    adjudicate::allocator::keep_freed_memory();
    adjudicate::commands::main()
}
