//! What the site shows of a game beyond its announcements, from `[public]` of its results alone:
//! each round's picture and the game's chart are the game's own (`Game::picture`, `Game::chart`);
//! here, a finished game's winners in words.

use crate::games::GameId;
use crate::games::picture::{Names, capitalize, name};
use toml::Table;

/// The winners of a finished game in words (`Game::ending`, as the season reads them): Planar
/// Control is won by an alignment; the season rounds have no winners.
pub fn winners(game: GameId, publics: &[&Table], names: &Names) -> Vec<String> {
    let ending = game.ending(publics);
    match ending.alignment {
        Some(a) => vec![format!("{} alignment", capitalize(&a))],
        None => ending
            .winners
            .iter()
            .map(|id| name(names, id.as_str()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::picture::tests::names;

    fn table(text: &str) -> Table {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn winners_come_from_the_last_final_in_words() {
        let a = table("[final]\nwinners = [\"alice\"]\n");
        let b = table("round = 5\n");
        assert_eq!(winners(GameId::RoomSwap, &[&a, &b], &names()), ["Alice"]);
        let pc = table("[final]\nwinner = \"torrent\"\n");
        assert_eq!(
            winners(GameId::PlanarControl, &[&pc], &names()),
            ["Torrent alignment"]
        );
        assert!(winners(GameId::FinalRitual, &[&b], &names()).is_empty());
    }

    #[test]
    fn a_hand_edited_result_without_the_keys_has_no_picture_and_no_panic() {
        let broken = table("spaces = 3\nplanes = [1]\nseats = \"x\"\n[final]\npoints = 1\n");
        for &game in GameId::ALL {
            assert_eq!(
                game.picture(&broken, None, &names(), "r", "t"),
                None,
                "{game:?}"
            );
        }
    }
}
