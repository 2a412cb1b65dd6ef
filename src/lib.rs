//! `adjudicate` runs online reality games for a host: it reads the players' TOML submissions from a
//! game directory, validates them, resolves each round by the rules of the game, renders a public
//! announcement and private reports, and queues them as mail.
//!
//! Layers, from the outside in:
//! - `commands` is the command line: a file per subcommand, its clap arguments, its `run` and
//!   its summary (the only module that sees clap or prints);
//! - `tick` is the game-independent round, in stages; `replay`, `status`, `check`, `new_game` the other commands;
//! - `game_dir`, `receipts`, `render`, `mail` own files, templates and messages;
//! - `games` holds the engines, pure functions of state, submissions and seed.

pub mod all_games;
pub mod allocator;
pub mod check;
pub mod clock;
pub mod commands;
pub mod config;
pub mod context;
pub mod doc;
pub mod early_state;
pub mod error;
pub mod game_dir;
pub mod games;
pub mod host_file;
pub mod host_record;
pub mod ingest;
pub mod mail;
pub mod new_game;
pub mod plan;
pub mod player_id;
pub mod problem;
pub mod receipts;
pub mod redact;
pub mod render;
pub mod replay;
pub mod result_file;
pub mod result_meta;
pub mod rng;
pub mod season;
pub mod simulate;
pub mod site;
pub mod status;
pub mod submission;
pub mod svg;
pub mod tick;
pub mod tick_cache;
