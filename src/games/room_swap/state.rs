//! Room Swap's state.toml: standings, garnets, the once-per-game Block, and the live choices of the
//! round being played (rooms, fallbacks, forbidden rooms, items used), which instant actions change
//! between ticks.

use super::rooms::{Room, RoomSet};
use crate::games::Seats;
use crate::games::version::Seat;
use crate::player_id::PlayerId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    pub rounds: u32,
    pub peek_cost: i64,
    pub block_cost: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rounds: 4,
            peek_cost: 2,
            block_cost: 5,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The scored rounds (1 to `rounds`, plus extra rounds after a six-way tie).
    Main,
    /// Five joint winners play on the five-player table until it separates them.
    Tiebreak,
    /// The sole winner may give a second Token of Life.
    Token,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Item {
    Peek,
    Block,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub round: u32,
    pub phase: Phase,
    /// Rounds resolved so far; indexes the schedule.
    pub rounds_played: u32,
    pub options: Options,
    pub players: Seats<PlayerState>,
    /// Tiebreak: the joint winners still playing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contenders: Vec<PlayerId>,
    /// Token phase: the sole winner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_giver: Option<PlayerId>,
    /// Set when the main game ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<MainEnd>,
}

/// The end of the main game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MainEnd {
    pub winners: Vec<PlayerId>,
    pub elimination: Vec<PlayerId>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayerState {
    pub points: u32,
    pub garnets: i64,
    pub block_used: bool,
    /// Won a Token of Life in this game.
    pub token: bool,
    /// Tokens of Life carried in from earlier matches (game.toml `tokens_of_life`).
    #[serde(skip_serializing_if = "is_default")]
    pub carried_tokens: u32,
    #[serde(skip_serializing_if = "is_default")]
    pub live: Live,
    /// Left the game (`adjudicate withdraw`, ruling 17): its room is drawn each round, it
    /// scores nothing and sends nothing.
    #[serde(skip_serializing_if = "is_default")]
    pub left: bool,
}

/// The current round's choices and effects for one player; cleared when the round resolves.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Live {
    /// The room that will count (latest valid version, or the fallback after a Block).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<Room>,
    /// The room of the first valid version: what a Peek reveals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_room: Option<Room>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Room>,
    /// Rooms forbidden by Blocks this round.
    #[serde(skip_serializing_if = "RoomSet::is_empty")]
    pub forbidden: RoomSet,
    /// Why `room` is unset or changed, for the report ("blocked", "fallback").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room_note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
    /// Targets of Peeks that took effect this round.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub peeked: Vec<PlayerId>,
    /// The Block this player used this round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked: Option<BlockUse>,
    /// Garnets paid this round.
    #[serde(skip_serializing_if = "is_default")]
    pub spent: i64,
    /// Private facts for this player's report (Peek answers, Block notices).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Token phase: the player the winner names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub give_token: Option<PlayerId>,
    #[serde(skip_serializing_if = "is_default")]
    pub valid_versions: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockUse {
    pub player: PlayerId,
    pub room: Room,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Players by their index in `players`: a round's seats, held inline (a game has a handful; the
/// simulator asks every round).
pub type SeatList = smallvec::SmallVec<[usize; 8]>;

impl State {
    /// Whether `id` plays this round (`playing().contains(id)`, without the list).
    pub fn is_playing(&self, id: &PlayerId) -> bool {
        let at = self.players.index_of(id);
        at.is_some_and(|at| self.plays_seat(Seat { id, at }))
    }

    /// `is_playing` of a player whose place in `players` is known.
    pub fn plays_seat(&self, seat: Seat<'_>) -> bool {
        let staying = !self.players.at(seat.at).left;
        staying
            && match self.phase {
                Phase::Main => true,
                Phase::Tiebreak => self.contenders.contains(seat.id),
                Phase::Token => self.token_giver.as_ref() == Some(seat.id),
                Phase::Over => false,
            }
    }

    /// Whether `p`, a player of this state, has a valid choice on file for this round: a room,
    /// or (in the Token round) a Token to give.
    pub fn has_choice(&self, p: &PlayerState) -> bool {
        match self.phase {
            Phase::Token => p.live.give_token.is_some(),
            _ => p.live.room.is_some(),
        }
    }

    /// The players who choose a room (or give the Token) this round.
    pub fn playing(&self) -> Vec<PlayerId> {
        let ids = self.playing_seats().into_iter();
        ids.map(|i| self.players.id(i).clone()).collect()
    }

    /// `playing` as the players' indices in `players`, in the same order (a main round's in id
    /// order, a tiebreak's in the contenders' order).
    pub fn playing_seats(&self) -> SeatList {
        let mut seats = self.seated_seats();
        seats.retain(|i| !self.players.at(*i).left);
        seats
    }

    /// `seated` as the players' indices in `players`, in the same order.
    pub fn seated_seats(&self) -> SeatList {
        match self.phase {
            // every seat: no lookup
            Phase::Main => (0..self.players.len()).collect(),
            // (every name in the state is a player's: `check_state`)
            _ => self
                .seated()
                .iter()
                .filter_map(|id| self.players.index_of(id))
                .collect(),
        }
    }

    /// Who is in a room this round: those playing, and the seats that left the game (ruling
    /// 17: their rooms are drawn, so the table's counts stay whole).
    pub fn seated(&self) -> Vec<PlayerId> {
        match self.phase {
            Phase::Main => self.players.keys().cloned().collect(),
            Phase::Tiebreak => self.contenders.clone(),
            Phase::Token => self.token_giver.iter().cloned().collect(),
            Phase::Over => Vec::new(),
        }
    }

    /// Ruling 17: a seat that leaves keeps its place in the rooms (drawn each round like a
    /// default), and from the round it leaves scores nothing, holds no points, and sends nothing.
    pub fn withdraw(&mut self, id: &PlayerId) -> Result<(), String> {
        if self.phase == Phase::Over {
            return Err("the game is over".into());
        }
        if !self
            .players
            .keys()
            .any(|p| p != id && !self.players[p].left)
        {
            return Err("nobody else is left in the game".into());
        }
        let player = self
            .players
            .get_mut(id)
            .ok_or_else(|| format!("{id} is not a player of this game"))?;
        player.left = true;
        player.points = 0;
        let live = &mut player.live;
        (live.room, live.initial_room, live.fallback, live.room_note) = (None, None, None, None);
        live.give_token = None;
        Ok(())
    }

    /// The Elimination Candidates, once the main game has named them.
    pub fn elimination(&self) -> Vec<PlayerId> {
        self.outcome
            .as_ref()
            .map(|o| o.elimination.clone())
            .unwrap_or_default()
    }

    /// Players without a Token of Life (won here or carried in) who are not Elimination
    /// Candidates: who may receive the sole winner's gift, and who may be chosen as Death Match
    /// opponents.
    pub fn unprotected(&self) -> Vec<PlayerId> {
        let elimination = self.elimination();
        self.players
            .iter()
            .filter(|(id, p)| !p.token && p.carried_tokens == 0 && !elimination.contains(id))
            .map(|(id, _)| id.clone())
            .collect()
    }

    pub fn allowed_rooms(&self, player: &PlayerId) -> RoomSet {
        match self.players.get(player) {
            Some(p) => Self::allowed_rooms_of(p),
            None => RoomSet::ALL,
        }
    }

    /// The rooms player `p` may choose: those no Block forbids them.
    pub fn allowed_rooms_of(p: &PlayerState) -> RoomSet {
        RoomSet::ALL.without(p.live.forbidden)
    }
}
