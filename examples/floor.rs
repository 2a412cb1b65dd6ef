//! The floor `make bench` measures ticks against: a program that does only the file work a tick
//! cannot avoid, and nothing else.
//!
//! - `floor write SRC DEST`: writes every file under SRC to the same path under DEST the way a
//!   tick does (temp file + rename; the last file synced before its rename, as state.toml is),
//!   creating each folder once. It reads the bytes from SRC first (page cache), so its cost is
//!   process start + reading + writing the same files.
//! - `floor list DIR`: lists DIR recursively and stats every entry, as `ls -lR` would: what a
//!   tick that finds nothing new cannot do without.
//!
//! Built with `cargo build --release --example floor`; used by `scripts/bench_big.sh`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
        let entry = entry.expect("readable source tree");
        if entry.file_type().is_file() {
            out.push(entry.path().strip_prefix(root).unwrap().to_path_buf());
        }
    }
    out
}

fn write(src: &Path, dest: &Path) -> usize {
    let list = files(src);
    let contents: Vec<(PathBuf, Vec<u8>)> = list
        .into_iter()
        .map(|rel| {
            let bytes = fs::read(src.join(&rel)).expect("readable source file");
            (rel, bytes)
        })
        .collect();
    let mut made = std::collections::HashSet::new();
    let last = contents.len().saturating_sub(1);
    for (i, (rel, bytes)) in contents.iter().enumerate() {
        let path = dest.join(rel);
        let folder = path.parent().unwrap().to_path_buf();
        if made.insert(folder.clone()) {
            fs::create_dir_all(&folder).expect("folder");
        }
        let tmp = folder.join(format!(".floor-{i}"));
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .expect("temp file");
        file.write_all(bytes).expect("write");
        if i == last {
            file.sync_all().expect("sync");
        }
        drop(file);
        fs::rename(&tmp, &path).expect("rename");
    }
    contents.len()
}

fn list(dir: &Path) -> usize {
    let mut n = 0;
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.expect("readable tree");
        let meta = entry.metadata().expect("stat");
        n += usize::from(meta.len() > 0 || meta.is_dir());
    }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write", src, dest] => {
            let n = write(Path::new(src), Path::new(dest));
            eprintln!("floor: wrote {n} files");
        }
        ["list", dir] => {
            let n = list(Path::new(dir));
            eprintln!("floor: listed {n} entries");
        }
        _ => {
            eprintln!("usage: floor write SRC DEST | floor list DIR");
            std::process::exit(2);
        }
    }
}
