/// The engines, the receive path and rendering make many small allocations; mimalloc serves
/// them faster than the system allocator, at the same peak memory (numbers: README,
/// Performance).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

fn main() -> ExitCode {
    adjudicate::commands::main()
}
