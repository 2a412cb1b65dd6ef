//! The integration tests: one binary, one module per concern. Fixtures are found through
//! `CARGO_MANIFEST_DIR`; game directories are real temporary directories; the CLI is the built
//! binary.

mod support;

mod all_games;
mod arrival_order;
mod bad_input;
mod cases;
mod cli;
mod crash;
mod deadlines;
mod endings;
mod example;
mod final_ritual;
mod first_game;
mod fuzz;
mod god_race;
mod host_files;
mod idle;
mod ingest;
mod layers;
mod levers;
mod mail;
mod mail_clients;
mod memo;
mod people;
mod planar_control;
mod properties;
mod replies;
mod season;
mod secrecy;
mod simulate;
mod site;
mod survivor;
mod tick;
mod tokens;
mod tribal_council;
mod validation_path;
mod zones;
