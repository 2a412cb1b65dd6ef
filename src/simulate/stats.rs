//! Streaming statistics of simulated games: integer sums only, so that merging the sums of games
//! played on different threads, in any order, gives the same numbers (the output of a fixed seed
//! is byte-identical), and memory does not grow with the number of games.

use crate::games::bots::End;

/// One finished (or cut off) game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub rounds: u32,
    /// False when the game was cut off at `MAX_ROUNDS` without ending.
    pub finished: bool,
    pub submissions: u64,
    pub defaults: u64,
    pub players: Vec<End>,
}

/// Count, sum and sum of squares of an integer quantity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moments {
    pub n: u64,
    pub sum: i128,
    pub squares: i128,
}

impl Moments {
    pub fn add(&mut self, x: i64) {
        self.n += 1;
        self.sum += i128::from(x);
        self.squares += i128::from(x) * i128::from(x);
    }

    pub fn merge(&mut self, other: &Moments) {
        self.n += other.n;
        self.sum += other.sum;
        self.squares += other.squares;
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// Half the width of the 95% confidence interval of the mean (normal approximation).
    pub fn ci95(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let var = (self.squares as f64 - (self.sum as f64).powi(2) / n) / (n - 1.0);
        1.96 * (var.max(0.0) / n).sqrt()
    }
}

/// A proportion `k / n` with its 95% Wilson score interval (sound near 0% and 100%, unlike the
/// normal approximation).
pub fn wilson(k: u64, n: u64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 0.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

/// The sums of one group of players (a role, an alignment, a strategy).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    /// Player-games: one per player of the group per game.
    pub players: u64,
    pub wins: u64,
    /// Games with at least one player of the group.
    pub games_present: u64,
    /// Games in which at least one player of the group won.
    pub games_won: u64,
    pub elimination: u64,
    pub tokens: u64,
    pub points: Moments,
    pub garnets: Moments,
}

impl Group {
    fn merge(&mut self, o: &Group) {
        self.players += o.players;
        self.wins += o.wins;
        self.games_present += o.games_present;
        self.games_won += o.games_won;
        self.elimination += o.elimination;
        self.tokens += o.tokens;
        self.points.merge(&o.points);
        self.garnets.merge(&o.garnets);
    }
}

/// Everything printed about one setting, summed over its games.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    pub unfinished: u64,
    pub no_winner: u64,
    pub submissions: u64,
    pub defaults: u64,
    pub rounds: Moments,
    /// Games by length: `lengths[r]` games lasted `r` rounds.
    pub lengths: Vec<u64>,
    /// By the game's groups (`Simulated::GROUPS`), in that order.
    pub by_group: Vec<Group>,
    /// By strategy (`Strategy::ALL` order).
    pub by_strategy: Vec<Group>,
    /// By seat (player index in id order; the seating order in Final Ritual).
    pub by_seat: Vec<Group>,
}

impl Stats {
    pub fn new(groups: usize, strategies: usize) -> Stats {
        Stats {
            by_group: vec![Group::default(); groups],
            by_strategy: vec![Group::default(); strategies],
            ..Stats::default()
        }
    }

    /// Folds one game in; `strategy[i]` is the strategy that played player i.
    pub fn add(&mut self, tally: &Tally, strategy: &[super::Strategy]) {
        self.games += 1;
        self.unfinished += u64::from(!tally.finished);
        self.no_winner += u64::from(!tally.players.iter().any(|p| p.won));
        self.submissions += tally.submissions;
        self.defaults += tally.defaults;
        self.rounds.add(i64::from(tally.rounds));
        let r = tally.rounds as usize;
        if self.lengths.len() <= r {
            self.lengths.resize(r + 1, 0);
        }
        self.lengths[r] += 1;
        if self.by_seat.len() < tally.players.len() {
            self.by_seat.resize(tally.players.len(), Group::default());
        }
        // Bit g: a player of group g was in this game / won it (a game has at most 32 groups).
        let (mut present, mut won, mut s_present, mut s_won) = (0u32, 0u32, 0u32, 0u32);
        for (i, end) in tally.players.iter().enumerate() {
            let add = |g: &mut Group| {
                g.players += 1;
                g.wins += u64::from(end.won);
                g.elimination += u64::from(end.elimination);
                g.tokens += u64::from(end.tokens);
                g.points.add(end.points);
                g.garnets.add(end.garnets);
            };
            if let Some(g) = end.group {
                add(&mut self.by_group[g]);
                present |= 1 << g;
                won |= u32::from(end.won) << g;
            }
            let s = strategy[i].index();
            add(&mut self.by_strategy[s]);
            s_present |= 1 << s;
            s_won |= u32::from(end.won) << s;
            let seat = &mut self.by_seat[i];
            add(seat);
            seat.games_present += 1;
            seat.games_won += u64::from(end.won);
        }
        for (g, group) in self.by_group.iter_mut().enumerate() {
            group.games_present += u64::from(present >> g & 1);
            group.games_won += u64::from(won >> g & 1);
        }
        for (s, group) in self.by_strategy.iter_mut().enumerate() {
            group.games_present += u64::from(s_present >> s & 1);
            group.games_won += u64::from(s_won >> s & 1);
        }
    }

    pub fn merge(mut self, o: Stats) -> Stats {
        self.games += o.games;
        self.unfinished += o.unfinished;
        self.no_winner += o.no_winner;
        self.submissions += o.submissions;
        self.defaults += o.defaults;
        self.rounds.merge(&o.rounds);
        if self.lengths.len() < o.lengths.len() {
            self.lengths.resize(o.lengths.len(), 0);
        }
        for (a, b) in self.lengths.iter_mut().zip(&o.lengths) {
            *a += b;
        }
        for (list, other) in [
            (&mut self.by_group, &o.by_group),
            (&mut self.by_strategy, &o.by_strategy),
            (&mut self.by_seat, &o.by_seat),
        ] {
            if list.len() < other.len() {
                list.resize(other.len(), Group::default());
            }
            for (a, b) in list.iter_mut().zip(other) {
                a.merge(b);
            }
        }
        self
    }

    /// The median game length.
    pub fn median_rounds(&self) -> usize {
        let mut seen = 0;
        for (r, n) in self.lengths.iter().enumerate() {
            seen += n;
            if seen * 2 >= self.games {
                return r;
            }
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(won: bool) -> End {
        End {
            group: Some(usize::from(won)),
            won,
            elimination: !won,
            tokens: u32::from(won),
            points: i64::from(won) * 3,
            garnets: 1,
        }
    }

    #[test]
    fn merging_in_any_order_gives_the_same_sums() {
        let games: Vec<Tally> = (0..7u32)
            .map(|r| Tally {
                rounds: r % 3 + 4,
                finished: r != 5,
                submissions: 4,
                defaults: u64::from(r % 2),
                players: vec![end(r % 2 == 0), end(false)],
            })
            .collect();
        let one = |ts: &[Tally]| {
            let mut s = Stats::new(2, 2);
            for t in ts {
                s.add(
                    t,
                    &[
                        super::super::Strategy::Random,
                        super::super::Strategy::Smart,
                    ],
                );
            }
            s
        };
        let whole = one(&games);
        let split = one(&games[4..]).merge(one(&games[..4]));
        assert_eq!(whole, split);
        assert_eq!(whole.games, 7);
        assert_eq!(whole.unfinished, 1);
        assert_eq!(whole.by_group[1].wins, 4); // games 0, 2, 4, 6
        assert_eq!(whole.by_strategy[1].wins, 0);
        assert_eq!(whole.lengths, vec![0, 0, 0, 0, 3, 2, 2]);
        assert_eq!(whole.median_rounds(), 5);
    }

    #[test]
    fn wilson_interval_stays_inside_zero_and_one_and_holds_the_rate() {
        let (p, lo, hi) = wilson(0, 10);
        assert_eq!(p, 0.0);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35, "{hi}");
        let (p, lo, hi) = wilson(500, 1000);
        assert!((p - 0.5).abs() < 1e-12);
        assert!((hi - lo - 0.062).abs() < 0.001, "{lo} {hi}");
    }

    #[test]
    fn mean_and_interval_of_a_constant_and_of_a_spread() {
        let mut m = Moments::default();
        for _ in 0..10 {
            m.add(4);
        }
        assert_eq!(m.mean(), 4.0);
        assert_eq!(m.ci95(), 0.0);
        let mut m = Moments::default();
        for x in [1, 2, 3, 4, 5] {
            m.add(x);
        }
        assert_eq!(m.mean(), 3.0);
        // sd = 1.5811, n = 5: 1.96 * 1.5811 / 2.2361
        assert!((m.ci95() - 1.3859).abs() < 1e-3, "{}", m.ci95());
    }
}
