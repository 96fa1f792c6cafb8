//! The airline's tools that only read the records: users, reservations, airports and flight
//! searches.

use crate::db::Db;
use crate::tools::{Args, ToolError, ToolResult};
use serde_json::{Map, Value, json};

/// The airports the airline flies to, with their cities (TAU-bench's list).
const AIRPORTS: [(&str, &str); 20] = [
    ("SFO", "San Francisco"),
    ("JFK", "New York"),
    ("LAX", "Los Angeles"),
    ("ORD", "Chicago"),
    ("DFW", "Dallas"),
    ("DEN", "Denver"),
    ("SEA", "Seattle"),
    ("ATL", "Atlanta"),
    ("MIA", "Miami"),
    ("BOS", "Boston"),
    ("PHX", "Phoenix"),
    ("IAH", "Houston"),
    ("LAS", "Las Vegas"),
    ("MCO", "Orlando"),
    ("EWR", "Newark"),
    ("CLT", "Charlotte"),
    ("MSP", "Minneapolis"),
    ("DTW", "Detroit"),
    ("PHL", "Philadelphia"),
    ("LGA", "LaGuardia"),
];

/// A record by id, as JSON text.
fn record(db: &Db, table: &str, id: &str, what: &str) -> ToolResult {
    db.table(table)
        .get(id)
        .map(|r| r.to_string())
        .ok_or_else(|| ToolError::NotFound(format!("{what} not found")))
}

/// `get_user_details`: a user's profile, payment methods and reservation ids.
pub fn get_user_details(db: &Db, args: &Args) -> ToolResult {
    record(db, "users", args.text("user_id")?, "user")
}

/// `get_reservation_details`: one reservation.
pub fn get_reservation_details(db: &Db, args: &Args) -> ToolResult {
    record(
        db,
        "reservations",
        args.text("reservation_id")?,
        "reservation",
    )
}

/// `list_all_airports`: airport code to city.
pub fn list_all_airports() -> ToolResult {
    let map: Map<String, Value> = AIRPORTS
        .iter()
        .map(|(code, city)| ((*code).to_owned(), json!(city)))
        .collect();
    Ok(Value::Object(map).to_string())
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or_default()
}

/// A flight on `date` as a search shows it: the flight without its calendar, with that day's
/// status, seats and prices; `None` unless the flight flies that day and has seats on sale.
fn on_sale(flight: &Value, date: &str) -> Option<Map<String, Value>> {
    let day = flight["dates"].get(date)?;
    if text(day, "status") != "available" {
        return None;
    }
    let mut shown: Map<String, Value> = flight.as_object()?.clone();
    shown.remove("dates");
    shown.extend(day.as_object()?.clone());
    Some(shown)
}

/// `search_direct_flight`: the flights from `origin` to `destination` on sale on `date`.
pub fn search_direct_flight(db: &Db, args: &Args) -> ToolResult {
    let (origin, destination, date) = (
        args.text("origin")?,
        args.text("destination")?,
        args.text("date")?,
    );
    let found: Vec<Value> = db
        .table("flights")
        .values()
        .filter(|f| text(f, "origin") == origin && text(f, "destination") == destination)
        .filter_map(|f| on_sale(f, date).map(Value::Object))
        .collect();
    Ok(Value::Array(found).to_string())
}

/// The date of a connection that arrives the next day (`+1` in its arrival time), written as
/// TAU-bench writes it: `2024-05-` and the day plus one, without a leading zero.
fn next_day(date: &str) -> Option<String> {
    let day: u32 = date.get(date.len().checked_sub(2)?..)?.parse().ok()?;
    Some(format!("2024-05-{}", day + 1))
}

/// `search_onestop_flight`: pairs of flights from `origin` to `destination` through one stop,
/// the first on `date`, the second leaving after the first lands (on the next day when the first
/// lands after midnight), both on sale.
pub fn search_onestop_flight(db: &Db, args: &Args) -> ToolResult {
    let (origin, destination, date) = (
        args.text("origin")?,
        args.text("destination")?,
        args.text("date")?,
    );
    let flights = db.table("flights");
    let mut found = Vec::new();
    for first in flights.values().filter(|f| text(f, "origin") == origin) {
        let lands = text(first, "scheduled_arrival_time_est");
        let second_date = if lands.contains("+1") {
            next_day(date).ok_or_else(|| {
                ToolError::BadArguments(format!(
                    "argument `date` must end in a day of the month, not {}",
                    crate::tools::args::clip(date)
                ))
            })?
        } else {
            date.to_owned()
        };
        for second in flights.values() {
            if text(second, "destination") != destination
                || text(first, "destination") != text(second, "origin")
                || lands > text(second, "scheduled_departure_time_est")
            {
                continue;
            }
            let (Some(mut leg1), Some(mut leg2)) =
                (on_sale(first, date), on_sale(second, &second_date))
            else {
                continue;
            };
            leg1.insert("date".into(), json!(date));
            leg2.insert("date".into(), json!(second_date));
            found.push(json!([leg1, leg2]));
        }
    }
    Ok(Value::Array(found).to_string())
}
