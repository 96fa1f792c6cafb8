//! TAU-bench's airline domain: users, flights and reservations.

mod num;
mod read;
mod write;

use super::{Args, ToolDef, ToolResult};
use crate::db::Db;
use serde_json::{Value, json};

/// Runs airline tool `name`; `None` when the domain has no such tool.
pub fn run(db: &mut Db, name: &str, args: &Args) -> Option<ToolResult> {
    Some(match name {
        "get_user_details" => read::get_user_details(db, args),
        "get_reservation_details" => read::get_reservation_details(db, args),
        "list_all_airports" => read::list_all_airports(),
        "search_direct_flight" => read::search_direct_flight(db, args),
        "search_onestop_flight" => read::search_onestop_flight(db, args),
        "book_reservation" => write::book_reservation(db, args),
        "cancel_reservation" => write::cancel_reservation(db, args),
        "update_reservation_baggages" => write::update_reservation_baggages(db, args),
        "update_reservation_flights" => write::update_reservation_flights(db, args),
        "update_reservation_passengers" => write::update_reservation_passengers(db, args),
        "send_certificate" => write::send_certificate(db, args),
        _ => return None,
    })
}

/// The airline tools with what each takes.
pub fn tools() -> Vec<ToolDef> {
    let s = super::text;
    let int = |d: &str| json!({"type": "integer", "description": d});
    let one_of = |values: &[&str]| json!({"type": "string", "enum": values});
    let list = |d: &str, properties: Value, required: &[&str]| {
        json!({"type": "array", "description": d,
               "items": {"type": "object", "properties": properties, "required": required}})
    };
    let cabin = one_of(&["basic_economy", "economy", "business"]);
    let legs = list(
        "The flights, one object per leg.",
        json!({"flight_number": s("The flight number, such as 'HAT001'."),
               "date": s("The date of the leg, 'YYYY-MM-DD', such as '2024-05-01'.")}),
        &["flight_number", "date"],
    );
    let passengers = list(
        "The passengers, one object each.",
        json!({"first_name": s("The first name, such as 'Noah'."),
               "last_name": s("The last name, such as 'Brown'."),
               "dob": s("The date of birth, 'YYYY-MM-DD'.")}),
        &["first_name", "last_name", "dob"],
    );
    let reservation = || s("The reservation id, such as 'ZFA04Y'.");
    let search = json!({"origin": s("The origin airport's IATA code, such as 'JFK'."),
                        "destination": s("The destination airport's IATA code, such as 'LAX'."),
                        "date": s("The date, 'YYYY-MM-DD', such as '2024-01-01'.")});
    let payment = || {
        s("A payment method id of the user, such as 'credit_card_7815826' or 'gift_card_7815826'.")
    };
    let tools: Vec<ToolDef> = vec![
        (
            "get_user_details",
            "The details of a user: profile, payment methods, saved passengers, membership and reservation ids.",
            json!({"user_id": s("The user id, such as 'sara_doe_496'.")}),
            vec!["user_id"],
        ),
        (
            "get_reservation_details",
            "The details of a reservation: flights, passengers, payments, baggage and insurance.",
            json!({"reservation_id": reservation()}),
            vec!["reservation_id"],
        ),
        (
            "list_all_airports",
            "Every airport the airline flies to, with its city.",
            json!({}),
            vec![],
        ),
        (
            "search_direct_flight",
            "The direct flights between two airports on a date that still sell seats, with their status, seats and prices per cabin.",
            search.clone(),
            vec!["origin", "destination", "date"],
        ),
        (
            "search_onestop_flight",
            "The pairs of flights with one stop between two airports, leaving on a date, that still sell seats.",
            search,
            vec!["origin", "destination", "date"],
        ),
        (
            "book_reservation",
            "Book a reservation for a user, paid in full with their payment methods (at most one certificate and one credit card, any gift cards). Only after the user confirmed.",
            json!({
                "user_id": s("The user id, such as 'sara_doe_496'."),
                "origin": s("The origin airport's IATA code, such as 'SFO'."),
                "destination": s("The destination airport's IATA code, such as 'JFK'."),
                "flight_type": one_of(&["one_way", "round_trip"]),
                "cabin": cabin.clone(),
                "flights": legs.clone(),
                "passengers": passengers.clone(),
                "payment_methods": list(
                    "How the price is paid, one object per payment method.",
                    json!({"payment_id": payment(),
                           "amount": {"type": "number", "description": "The amount paid with it."}}),
                    &["payment_id", "amount"],
                ),
                "total_baggages": int("The number of checked bags."),
                "nonfree_baggages": int("The number of checked bags that are paid for."),
                "insurance": one_of(&["yes", "no"]),
            }),
            vec![
                "user_id",
                "origin",
                "destination",
                "flight_type",
                "cabin",
                "flights",
                "passengers",
                "payment_methods",
                "total_baggages",
                "nonfree_baggages",
                "insurance",
            ],
        ),
        (
            "cancel_reservation",
            "Cancel a whole reservation; every payment is refunded. Only after the user confirmed.",
            json!({"reservation_id": reservation()}),
            vec!["reservation_id"],
        ),
        (
            "update_reservation_baggages",
            "Change the number of checked bags of a reservation, paying for added non-free bags. Only after the user confirmed.",
            json!({"reservation_id": reservation(),
                   "total_baggages": int("The new number of checked bags."),
                   "nonfree_baggages": int("The new number of paid checked bags."),
                   "payment_id": payment()}),
            vec![
                "reservation_id",
                "total_baggages",
                "nonfree_baggages",
                "payment_id",
            ],
        ),
        (
            "update_reservation_flights",
            "Replace the flights of a reservation (all of them, changed or not), paying or refunding the fare difference for every passenger. Only after the user confirmed.",
            json!({"reservation_id": reservation(),
                   "cabin": cabin,
                   "flights": legs,
                   "payment_id": payment()}),
            vec!["reservation_id", "cabin", "flights", "payment_id"],
        ),
        (
            "update_reservation_passengers",
            "Replace the passengers of a reservation with as many others. Only after the user confirmed.",
            json!({"reservation_id": reservation(), "passengers": passengers}),
            vec!["reservation_id", "passengers"],
        ),
        (
            "send_certificate",
            "Send a user a certificate of an amount, as compensation. Only after the user confirmed.",
            json!({"user_id": s("The user id, such as 'sara_doe_496'."),
                   "amount": {"type": "number", "description": "The certificate's amount."}}),
            vec!["user_id", "amount"],
        ),
    ];
    tools
}

#[cfg(test)]
mod tests;
