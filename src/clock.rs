//! Time as the spec needs it: RFC 3339 instants, durations like `"24h"`, and the human form players
//! read ("Tue 2 Dec 15:00 UTC", "in 23 h 40 min"). Times are kept in UTC; a player with a time
//! zone reads them in it, with UTC beside ("Wed 2 Dec 10:00 EST (15:00 UTC)"), from the IANA
//! database bundled in the binary (a machine without /usr/share/zoneinfo works the same).

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

/// A zone of the IANA database by name ("America/New_York").
pub fn zone(name: &str) -> Result<TimeZone, String> {
    TimeZone::get(name).map_err(|_| {
        format!("`{name}` is not a time zone of the IANA database (e.g. \"America/New_York\", \"Europe/Berlin\", \"UTC\")")
    })
}

/// A time as a player in `zone` reads it: "Wed 2 Dec 10:00 EST (15:00 UTC)", with the UTC date
/// when it differs ("Wed 2 Dec 22:00 PST (Thu 3 Dec 06:00 UTC)"); `human` without a zone (or in
/// UTC itself).
pub fn human_in(t: Timestamp, zone: Option<&TimeZone>) -> String {
    let Some(tz) = zone.filter(|z| !is_utc(z)) else {
        return human(t);
    };
    let local = t.to_zoned_datetime(tz.clone());
    let here = local.strftime("%a %-d %b %H:%M %Z").to_string();
    if local.date() == t.to_zoned_datetime(TimeZone::UTC).date() {
        format!("{here} ({} UTC)", t.strftime("%H:%M"))
    } else {
        format!("{here} ({})", human(t))
    }
}

/// `human_apart` in a player's zone.
pub fn human_apart_in(a: Timestamp, b: Timestamp, zone: Option<&TimeZone>) -> (String, String) {
    if zone.is_none_or(is_utc) {
        return human_apart(a, b);
    }
    let (x, y) = (human_in(a, zone), human_in(b, zone));
    if x != y {
        return (x, y);
    }
    let tz = zone.expect("a zone");
    let precise = |t: Timestamp| {
        format!(
            "{} ({} UTC)",
            t.to_zoned_datetime(tz.clone())
                .strftime("%a %-d %b %H:%M:%S %Z"),
            t.strftime("%H:%M:%S")
        )
    };
    (precise(a), precise(b))
}

fn is_utc(zone: &TimeZone) -> bool {
    zone.iana_name() == Some("UTC") || *zone == TimeZone::UTC
}

pub fn parse_instant(text: &str) -> Result<Timestamp, String> {
    text.parse::<Timestamp>()
        .map_err(|e| format!("`{text}` is not an RFC 3339 time with an offset ({e})"))
}

pub fn parse_duration(text: &str) -> Result<SignedDuration, String> {
    let d = text.parse::<SignedDuration>().map_err(|_| {
        format!("`{text}` is not a duration; write e.g. \"24h\", \"90m\" or \"2d 12h\"")
    })?;
    if d.is_positive() {
        Ok(d)
    } else {
        Err(format!("`{text}` must be longer than zero"))
    }
}

/// "Tue 2 Dec 15:00 UTC"
pub fn human(t: Timestamp) -> String {
    t.strftime("%a %-d %b %H:%M UTC").to_string()
}

/// Two times side by side ("arrived …, the deadline was …"), to the second when the minutes
/// alone would read the same: "02:30:21" and "02:30:00", never "02:30" and "02:30".
pub fn human_apart(a: Timestamp, b: Timestamp) -> (String, String) {
    let (x, y) = (human(a), human(b));
    if x != y {
        return (x, y);
    }
    let precise = |t: Timestamp| t.strftime("%a %-d %b %H:%M:%S UTC").to_string();
    (precise(a), precise(b))
}

/// "Tue 2 Dec 2026 15:00 UTC": for places where the year matters.
pub fn human_with_year(t: Timestamp) -> String {
    t.strftime("%a %-d %b %Y %H:%M UTC").to_string()
}

/// RFC 3339 with second precision, as written in receipts.
pub fn rfc3339(t: Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// "in 23 h 40 min", "2 d 3 h ago", "now".
pub fn relative(from: Timestamp, to: Timestamp) -> String {
    let secs = to.duration_since(from).as_secs();
    match length(to.duration_since(from)) {
        None => "now".to_owned(),
        Some(text) if secs > 0 => format!("in {text}"),
        Some(text) => format!("{text} ago"),
    }
}

/// A length of time as players read it: "40 min", "23 h 40 min", "2 d 3 h"; `None` under a
/// minute.
pub fn length(span: SignedDuration) -> Option<String> {
    let minutes = span.as_secs().unsigned_abs() / 60;
    let (d, h, m) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    Some(match (d, h, m) {
        (0, 0, 0) => return None,
        (0, 0, m) => format!("{m} min"),
        (0, h, m) => format!("{h} h {m} min"),
        (d, h, _) => format!("{d} d {h} h"),
    })
}

/// An optional instant (Unix seconds) written as a TOML time (`2026-12-02T15:00:00Z`), for
/// `#[serde(with = …)]`.
pub mod toml_time {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(t: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        let text = t
            .and_then(|t| jiff::Timestamp::from_second(t).ok())
            .map(super::rfc3339)
            .ok_or_else(|| serde::ser::Error::custom("not a time"))?;
        let time: toml::value::Datetime = text.parse().map_err(serde::ser::Error::custom)?;
        time.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        let Some(time) = Option::<toml::value::Datetime>::deserialize(d)? else {
            return Ok(None);
        };
        let t = super::parse_instant(&time.to_string()).map_err(serde::de::Error::custom)?;
        Ok(Some(t.as_second()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_forms() {
        let deadline = parse_instant("2026-12-01T15:00:00Z").unwrap();
        assert_eq!(human(deadline), "Tue 1 Dec 15:00 UTC");
        let now = parse_instant("2026-11-30T15:20:00Z").unwrap();
        assert_eq!(relative(now, deadline), "in 23 h 40 min");
        assert_eq!(relative(deadline, now), "23 h 40 min ago");
        assert_eq!(parse_duration("24h").unwrap().as_secs(), 86_400);
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("0h").is_err());
    }

    #[test]
    fn times_in_the_same_minute_are_told_apart_to_the_second() {
        let deadline = parse_instant("2026-12-02T02:30:00Z").unwrap();
        let late = parse_instant("2026-12-02T02:30:21Z").unwrap();
        assert_eq!(
            human_apart(late, deadline),
            (
                "Wed 2 Dec 02:30:21 UTC".to_owned(),
                "Wed 2 Dec 02:30:00 UTC".to_owned()
            )
        );
        let later = parse_instant("2026-12-02T02:41:00Z").unwrap();
        assert_eq!(
            human_apart(later, deadline),
            (
                "Wed 2 Dec 02:41 UTC".to_owned(),
                "Wed 2 Dec 02:30 UTC".to_owned()
            )
        );
    }
}
