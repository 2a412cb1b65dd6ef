//! `[schedule]` of game.toml: the deadlines (an instant, or a wall time in the game's zone), how
//! later ones follow, reminders, grace, early close, the game's time zone and the missed limit.

use crate::clock;
use crate::error::{Error, Result};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone)]
pub struct Schedule {
    pub first_deadline: Timestamp,
    pub every: Option<SignedDuration>,
    pub deadlines: Vec<Timestamp>,
    pub remind_before: Option<SignedDuration>,
    pub early_close: bool,
    /// How long a due round waits after its deadline before it resolves (spec README, "When a
    /// version counts"): versions that reached the host by the deadline but are fetched a few
    /// minutes later still count.
    pub grace: Option<SignedDuration>,
    /// `tz`: the game's time zone, what players without their own read times in; wall-time
    /// deadlines (no offset) are in it.
    pub zone: Option<TimeZone>,
    /// The first deadline was given as a wall time in `zone`: an `every` of whole days keeps
    /// that wall time across daylight-saving changes.
    pub wall: bool,
    /// A player defaulted this many rounds in a row is flagged in `status` and the host told.
    pub missed_limit: Option<u32>,
}

impl Schedule {
    /// `n` steps of `every` after `from`: whole days in the game's zone when the deadlines are
    /// wall times there (10:00 stays 10:00 when the clocks change), else exact durations.
    pub fn step(&self, from: Timestamp, n: u32) -> Option<Timestamp> {
        let every = self.every?;
        let day = SignedDuration::from_hours(24);
        match &self.zone {
            Some(zone) if self.wall && every.as_secs() % day.as_secs() == 0 => {
                let days = i64::from(n) * (every.as_secs() / day.as_secs());
                let span = jiff::Span::new().try_days(days).ok()?;
                from.to_zoned_datetime(zone.clone())
                    .checked_add(span)
                    .ok()
                    .map(|z| z.timestamp())
            }
            _ => from
                .checked_add(every.checked_mul(i32::try_from(n).ok()?)?)
                .ok(),
        }
    }

    /// The deadline of the `index`-th round played (0 = the first), if the schedule has one.
    pub fn deadline(&self, index: u32) -> Option<Timestamp> {
        if !self.deadlines.is_empty() {
            return self.deadlines.get(index as usize).copied();
        }
        match index {
            0 => Some(self.first_deadline),
            i => self.step(self.first_deadline, i),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSchedule {
    first_deadline: Option<toml::value::Datetime>,
    every: Option<String>,
    #[serde(default)]
    deadlines: Vec<toml::value::Datetime>,
    remind_before: Option<String>,
    #[serde(default)]
    early_close: bool,
    grace: Option<String>,
    tz: Option<String>,
    missed_limit: Option<i64>,
}

pub(crate) fn parse_schedule(path: &Path, s: RawSchedule) -> Result<Schedule> {
    let bad = |key: &str, msg: String| Error::invalid(path, format!("schedule.{key}"), msg);
    let zone =
        s.tz.as_deref()
            .map(clock::zone)
            .transpose()
            .map_err(|m| bad("tz", m))?;
    // a time with an offset, or a wall time in the game's zone (refused in a DST gap or fold)
    let instant = |key: &str, d: &toml::value::Datetime| -> Result<(Timestamp, bool)> {
        match (&zone, d.offset, d.date, d.time) {
            (Some(zone), None, Some(date), Some(time)) => {
                let wall: jiff::civil::DateTime = format!("{date}T{time}")
                    .parse()
                    .map_err(|e| bad(key, format!("`{d}` is not a date and time ({e})")))?;
                let name = zone.iana_name().unwrap_or("the game's zone");
                zone.to_ambiguous_timestamp(wall)
                    .unambiguous()
                    .map(|t| (t, true))
                    .map_err(|_| {
                        bad(
                            key,
                            format!("{d} happens twice or not at all in {name} (the clocks change that night); choose another time, or give an offset"),
                        )
                    })
            }
            _ => clock::parse_instant(&d.to_string())
                .map(|t| (t, false))
                .map_err(|m| {
                    bad(
                        key,
                        format!("{m}; or set [schedule] tz to give wall times in it"),
                    )
                }),
        }
    };
    let deadlines = s
        .deadlines
        .iter()
        .map(|d| instant("deadlines", d).map(|(t, _)| t))
        .collect::<Result<Vec<_>>>()?;
    if deadlines.windows(2).any(|w| w[0] >= w[1]) {
        return Err(bad("deadlines", "must be in increasing order".into()));
    }
    let (first_deadline, wall) = match (&s.first_deadline, deadlines.first()) {
        (Some(d), _) => instant("first_deadline", d)?,
        (None, Some(d)) => (*d, false),
        (None, None) => {
            return Err(bad(
                "first_deadline",
                "is required (or give `deadlines`)".into(),
            ));
        }
    };
    let duration = |key: &str, v: &Option<String>| {
        v.as_deref()
            .map(|t| clock::parse_duration(t).map_err(|m| bad(key, m)))
            .transpose()
    };
    Ok(Schedule {
        first_deadline,
        every: duration("every", &s.every)?,
        deadlines,
        remind_before: duration("remind_before", &s.remind_before)?,
        early_close: s.early_close,
        grace: duration("grace", &s.grace)?,
        zone,
        wall,
        missed_limit: match s.missed_limit {
            None => None,
            Some(n) if (1..=1000).contains(&n) => Some(n as u32),
            Some(n) => {
                return Err(bad(
                    "missed_limit",
                    format!("is {n}; give 1 to 1000 rounds"),
                ));
            }
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(every: &str, zone: Option<&str>, wall: bool) -> Schedule {
        Schedule {
            first_deadline: "2026-10-31T14:00:00Z".parse().unwrap(),
            every: Some(clock::parse_duration(every).unwrap()),
            deadlines: Vec::new(),
            remind_before: None,
            early_close: false,
            grace: None,
            zone: zone.map(|z| clock::zone(z).unwrap()),
            wall,
            missed_limit: None,
        }
    }

    #[test]
    fn whole_days_keep_the_wall_time_only_for_wall_time_deadlines() {
        // 10:00 EDT on Sat 31 Oct; New York leaves daylight time on Sun 1 Nov
        let wall = schedule("24h", Some("America/New_York"), true);
        assert_eq!(
            wall.deadline(1).unwrap().to_string(),
            "2026-11-01T15:00:00Z"
        );
        let exact = schedule("24h", Some("America/New_York"), false);
        assert_eq!(
            exact.deadline(1).unwrap().to_string(),
            "2026-11-01T14:00:00Z"
        );
        // not whole days: exact durations even for wall times
        let hours = schedule("36h", Some("America/New_York"), true);
        assert_eq!(
            hours.deadline(1).unwrap().to_string(),
            "2026-11-02T02:00:00Z"
        );
    }

    #[test]
    fn a_step_past_the_end_of_time_is_no_deadline_not_a_panic() {
        let huge = schedule("100000000h", None, false);
        assert_eq!(huge.deadline(1_000), None);
        assert_eq!(huge.step(huge.first_deadline, u32::MAX), None);
        let days = schedule("1000000h", Some("UTC"), true);
        assert_eq!(days.step(days.first_deadline, u32::MAX), None);
    }
}
