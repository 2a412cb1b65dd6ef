//! The games: one folder per game behind one trait (`Game`), and the registry, the only place
//! that lists them. Engines are pure: no file system, clock, mail, configuration or global RNG;
//! everything comes in as arguments (state, the parsed submission, the seed) so that rule cases
//! drive them as data and the round (`crate::tick`) is written once for all games.
//!
//! Adding a game: its folder here (rules, bots, ending, picture, season hook), its data folder
//! `games/<name>/` (README, new.toml, templates, cases), and one line below (ARCHITECTURE.md,
//! "A new game").

#[macro_use]
mod registry;

pub mod bots;
pub mod ending;
mod extra;
mod game;
pub mod picture;
mod private_part;
mod public;
pub mod season;
mod seats;
pub mod version;

pub mod death_match_pick;
pub mod final_ritual;
pub mod god_race;
pub mod meadow_assignment;
pub mod planar_control;
pub mod room_swap;
pub mod tribal_council;

pub use extra::Extra;
pub use game::*;
pub use private_part::PrivatePart;
pub use public::Public;
pub use registry::{WithGame, WithMatch};
pub use seats::Seats;

registry! {
    /// Matches: games a season plays for garnets and Tokens of Life, with bots for `simulate`.
    matches {
        GodRace => god_race::GodRace,
        RoomSwap => room_swap::RoomSwap,
        PlanarControl => planar_control::PlanarControl,
        FinalRitual => final_ritual::FinalRitual,
    }
    /// Season rounds: played between a season's matches (the Death Match pick, the meadow
    /// assignment); no winners, garnets or Tokens, no season report of their own.
    season_rounds {
        DeathMatchPick => death_match_pick::DeathMatchPick,
        MeadowAssignment => meadow_assignment::MeadowAssignment,
    }
    /// Season rounds `simulate` plays too (their bots vote).
    simulated_rounds {
        TribalCouncil => tribal_council::TribalCouncil,
    }
}

#[cfg(test)]
mod tests {
    use crate::doc::Choice;

    /// `Choice::parse` compares names without regard to ASCII case, which reads a player's
    /// "Attic" as `attic` only because every name is written in lower case.
    fn names_are_lower_case_and_parse_in_any_case<C: Choice + PartialEq + std::fmt::Debug>() {
        for &c in C::ALL {
            let name = c.name();
            assert_eq!(name, name.to_lowercase(), "{name}");
            assert_eq!(C::parse(&format!(" {} ", name.to_uppercase())), Some(c));
            assert_eq!(C::parse(&format!("{name}x")), None);
        }
    }

    #[test]
    fn choice_names_are_lower_case() {
        names_are_lower_case_and_parse_in_any_case::<super::god_race::gods::God>();
        names_are_lower_case_and_parse_in_any_case::<super::room_swap::rooms::Room>();
        names_are_lower_case_and_parse_in_any_case::<super::planar_control::state::Plane>();
        names_are_lower_case_and_parse_in_any_case::<super::planar_control::state::Alignment>();
        names_are_lower_case_and_parse_in_any_case::<super::final_ritual::state::Dedicate>();
        names_are_lower_case_and_parse_in_any_case::<super::final_ritual::cards::Resource>();
        names_are_lower_case_and_parse_in_any_case::<super::final_ritual::cards::Role>();
        names_are_lower_case_and_parse_in_any_case::<super::final_ritual::cards::Oracle>();
    }
}
