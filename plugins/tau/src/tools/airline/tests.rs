//! The airline tools on a small set of records: prices, payments and the records left follow
//! TAU-bench's rules; refused and malformed calls change nothing.

use crate::db::Db;
use crate::domain::Kind;
use crate::tools::{self, ToolResult};
use serde_json::{Value, json};

fn day(status: &str, price: i64, seats: i64) -> Value {
    json!({"status": status,
           "available_seats": {"basic_economy": seats, "economy": seats, "business": seats},
           "prices": {"basic_economy": price / 2, "economy": price, "business": price * 3}})
}

fn records() -> Db {
    let mut db = Db::default();
    let users = json!({
        "ana_1": {"name": {"first_name": "Ana", "last_name": "Ruiz"}, "dob": "1990-01-02",
                  "membership": "gold", "saved_passengers": [],
                  "payment_methods": {
                      "credit_card_1": {"source": "credit_card", "brand": "visa", "last_four": "1111", "id": "credit_card_1"},
                      "gift_card_1": {"source": "gift_card", "amount": 500, "id": "gift_card_1"},
                      "certificate_1": {"source": "certificate", "amount": 100, "id": "certificate_1"}},
                  "reservations": ["RES001"]}
    })
    .as_object()
    .unwrap()
    .clone();
    let flights = json!({
        "HAT001": {"flight_number": "HAT001", "origin": "JFK", "destination": "ORD",
                   "scheduled_departure_time_est": "08:00:00", "scheduled_arrival_time_est": "10:00:00",
                   "dates": {"2024-05-20": day("available", 200, 5), "2024-05-21": day("cancelled", 200, 0)}},
        "HAT002": {"flight_number": "HAT002", "origin": "ORD", "destination": "SEA",
                   "scheduled_departure_time_est": "12:00:00", "scheduled_arrival_time_est": "14:00:00",
                   "dates": {"2024-05-20": day("available", 150, 1)}},
        "HAT003": {"flight_number": "HAT003", "origin": "JFK", "destination": "ORD",
                   "scheduled_departure_time_est": "18:00:00", "scheduled_arrival_time_est": "20:00:00",
                   "dates": {"2024-05-20": day("available", 260, 9)}}
    })
    .as_object()
    .unwrap()
    .clone();
    let reservations = json!({
        "RES001": {"reservation_id": "RES001", "user_id": "ana_1", "origin": "JFK", "destination": "ORD",
                   "flight_type": "one_way", "cabin": "economy",
                   "flights": [{"flight_number": "HAT001", "date": "2024-05-20", "price": 180,
                                "origin": "JFK", "destination": "ORD"}],
                   "passengers": [{"first_name": "Ana", "last_name": "Ruiz", "dob": "1990-01-02"},
                                  {"first_name": "Bo", "last_name": "Ruiz", "dob": "1992-03-04"}],
                   "payment_history": [{"payment_id": "credit_card_1", "amount": 360}],
                   "created_at": "2024-05-01T10:00:00", "total_baggages": 1, "nonfree_baggages": 0,
                   "insurance": "no"}
    })
    .as_object()
    .unwrap()
    .clone();
    for (table, records) in [
        ("users", users),
        ("flights", flights),
        ("reservations", reservations),
    ] {
        for (id, record) in records {
            db.insert(table, id, record);
        }
    }
    db
}

fn call(db: &mut Db, name: &str, arguments: Value) -> ToolResult {
    tools::run(Kind::Airline, db, name, &arguments)
}

fn booking(payments: Value, nonfree: i64, insurance: &str) -> Value {
    json!({"user_id": "ana_1", "origin": "JFK", "destination": "SEA", "flight_type": "one_way",
           "cabin": "economy",
           "flights": [{"flight_number": "HAT001", "date": "2024-05-20"},
                       {"flight_number": "HAT002", "date": "2024-05-20"}],
           "passengers": [{"first_name": "Ana", "last_name": "Ruiz", "dob": "1990-01-02"}],
           "payment_methods": payments, "total_baggages": 2, "nonfree_baggages": nonfree,
           "insurance": insurance})
}

#[test]
fn a_booking_is_priced_paid_and_recorded() {
    let mut db = records();
    // 200 + 150 for one passenger, 30 insurance, one paid bag 50: 430.
    let wrong = call(
        &mut db,
        "book_reservation",
        booking(
            json!([{"payment_id": "credit_card_1", "amount": 400}]),
            1,
            "yes",
        ),
    );
    assert_eq!(
        wrong.unwrap_err().message(),
        "Error: payment amount does not add up, total price is 430, but paid 400"
    );
    assert_eq!(db, records());
    let payments = json!([{"payment_id": "certificate_1", "amount": 100},
                          {"payment_id": "gift_card_1", "amount": 130.5},
                          {"payment_id": "credit_card_1", "amount": 199.5}]);
    let out = call(
        &mut db,
        "book_reservation",
        booking(payments.clone(), 1, "yes"),
    )
    .unwrap();
    let made: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(made["reservation_id"], "HATHAT");
    assert_eq!(
        made["flights"][1],
        json!({"flight_number": "HAT002", "date": "2024-05-20",
                                          "price": 150, "origin": "ORD", "destination": "SEA"})
    );
    assert_eq!(made["payment_history"], payments);
    assert_eq!(*db.table("reservations")["HATHAT"], made);
    let user = &db.table("users")["ana_1"];
    assert_eq!(user["reservations"], json!(["RES001", "HATHAT"]));
    assert_eq!(
        user["payment_methods"]["gift_card_1"]["amount"],
        json!(369.5)
    );
    assert!(user["payment_methods"].get("certificate_1").is_none());
    // The next booking takes the next id.
    let again = call(
        &mut db,
        "book_reservation",
        booking(
            json!([{"payment_id": "credit_card_1", "amount": 350}]),
            0,
            "no",
        ),
    );
    assert_eq!(
        serde_json::from_str::<Value>(&again.unwrap()).unwrap()["reservation_id"],
        "HATHAU"
    );
}

#[test]
fn bookings_are_refused_by_the_records() {
    let pay = |amount: i64| json!([{"payment_id": "credit_card_1", "amount": amount}]);
    let cases = [
        (
            json!({"flights": [{"flight_number": "HAT009", "date": "2024-05-20"}]}),
            "not_found",
            "flight HAT009 not found",
        ),
        (
            json!({"flights": [{"flight_number": "HAT001", "date": "2024-06-01"}]}),
            "not_found",
            "not found on date",
        ),
        (
            json!({"flights": [{"flight_number": "HAT001", "date": "2024-05-21"}]}),
            "not_allowed",
            "not available",
        ),
        (
            json!({"passengers": [{}, {}]}),
            "not_allowed",
            "not enough seats on flight HAT002",
        ),
        (
            json!({"payment_methods": [{"payment_id": "gift_card_1", "amount": 501}]}),
            "not_allowed",
            "not enough balance",
        ),
        (
            json!({"payment_methods": [{"payment_id": "credit_card_9", "amount": 350}]}),
            "not_found",
            "payment method credit_card_9",
        ),
        (
            json!({"payment_methods": [{"payment_id": "certificate_1", "amount": 50}, {"payment_id": "certificate_1", "amount": 50}, {"payment_id": "credit_card_1", "amount": 250}]}),
            "not_allowed",
            "listed twice",
        ),
        (json!({"user_id": "nobody"}), "not_found", "user not found"),
        (json!({"cabin": "first"}), "bad_arguments", "cabin"),
        (
            json!({"nonfree_baggages": "2"}),
            "bad_arguments",
            "nonfree_baggages",
        ),
        (
            json!({"flights": [{"flight_number": 1, "date": "2024-05-20"}]}),
            "bad_arguments",
            "flight_number",
        ),
        (json!({"passengers": "Ana"}), "bad_arguments", "passengers"),
        (
            json!({"payment_methods": [{"payment_id": "credit_card_1", "amount": "350"}]}),
            "bad_arguments",
            "amount",
        ),
    ];
    for (change, kind, says) in cases {
        let mut db = records();
        let mut arguments = booking(pay(350), 0, "no");
        arguments
            .as_object_mut()
            .unwrap()
            .extend(change.as_object().unwrap().clone());
        let error = call(&mut db, "book_reservation", arguments).unwrap_err();
        assert_eq!(error.kind(), kind, "{change}: {error:?}");
        assert!(error.message().contains(says), "{change}: {error:?}");
        assert_eq!(db, records(), "{change} changed the records");
    }
}

#[test]
fn cancelling_refunds_every_payment() {
    let mut db = records();
    call(
        &mut db,
        "cancel_reservation",
        json!({"reservation_id": "RES001"}),
    )
    .unwrap();
    let r = &db.table("reservations")["RES001"];
    assert_eq!(r["status"], "cancelled");
    assert_eq!(
        r["payment_history"],
        json!([{"payment_id": "credit_card_1", "amount": 360},
                                            {"payment_id": "credit_card_1", "amount": -360}])
    );
    let missing = call(
        &mut db,
        "cancel_reservation",
        json!({"reservation_id": "NOPE"}),
    );
    assert_eq!(missing.unwrap_err().kind(), "not_found");
}

#[test]
fn changing_flights_pays_the_fare_difference_for_every_passenger() {
    let mut db = records();
    // HAT001 at its booked 180 becomes HAT003 at 260, two passengers: 160 more, from the gift card.
    let change = json!({"reservation_id": "RES001", "cabin": "economy",
                        "flights": [{"flight_number": "HAT003", "date": "2024-05-20"}],
                        "payment_id": "gift_card_1"});
    call(&mut db, "update_reservation_flights", change.clone()).unwrap();
    let r = &db.table("reservations")["RES001"];
    assert_eq!(r["flights"][0]["price"], 260);
    assert_eq!(
        r["payment_history"][1],
        json!({"payment_id": "gift_card_1", "amount": 160})
    );
    assert_eq!(
        db.table("users")["ana_1"]["payment_methods"]["gift_card_1"]["amount"],
        340
    );
    // Keeping the same leg in the same cabin keeps its price and charges nothing.
    let mut db = records();
    let same = json!({"reservation_id": "RES001", "cabin": "economy",
                      "flights": [{"flight_number": "HAT001", "date": "2024-05-20"}],
                      "payment_id": "credit_card_1"});
    call(&mut db, "update_reservation_flights", same).unwrap();
    assert_eq!(
        db.table("reservations")["RES001"]["payment_history"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        db.table("reservations")["RES001"]["flights"][0]["price"],
        180
    );
    // A certificate cannot pay a change.
    let mut db = records();
    let mut by_certificate = change;
    by_certificate["payment_id"] = json!("certificate_1");
    let error = call(&mut db, "update_reservation_flights", by_certificate).unwrap_err();
    assert_eq!(error.kind(), "not_allowed");
    assert_eq!(db, records());
}

#[test]
fn baggage_passengers_and_certificates() {
    let mut db = records();
    let bags = json!({"reservation_id": "RES001", "total_baggages": 3, "nonfree_baggages": 2,
                      "payment_id": "gift_card_1"});
    call(&mut db, "update_reservation_baggages", bags).unwrap();
    let r = &db.table("reservations")["RES001"];
    assert_eq!(
        (r["total_baggages"].clone(), r["nonfree_baggages"].clone()),
        (json!(3), json!(2))
    );
    assert_eq!(
        r["payment_history"][1],
        json!({"payment_id": "gift_card_1", "amount": 100})
    );
    assert_eq!(
        db.table("users")["ana_1"]["payment_methods"]["gift_card_1"]["amount"],
        400
    );

    let one = json!({"reservation_id": "RES001", "passengers": [{"first_name": "Cy", "last_name": "Ng", "dob": "2000-01-01"}]});
    let error = call(&mut db, "update_reservation_passengers", one).unwrap_err();
    assert_eq!(
        error.message(),
        "Error: number of passengers does not match"
    );

    for expected in [
        "certificate_3221322",
        "certificate_3221323",
        "certificate_3221324",
    ] {
        let out = call(
            &mut db,
            "send_certificate",
            json!({"user_id": "ana_1", "amount": 150}),
        )
        .unwrap();
        assert_eq!(
            out,
            format!("Certificate {expected} added to user ana_1 with amount 150.")
        );
    }
    let fourth = call(
        &mut db,
        "send_certificate",
        json!({"user_id": "ana_1", "amount": 150}),
    );
    assert_eq!(fourth.unwrap_err().kind(), "not_allowed");
}

#[test]
fn searches_show_flights_on_sale_and_connections() {
    let mut db = records();
    let direct = call(
        &mut db,
        "search_direct_flight",
        json!({"origin": "JFK", "destination": "ORD", "date": "2024-05-20"}),
    )
    .unwrap();
    let direct: Value = serde_json::from_str(&direct).unwrap();
    assert_eq!(direct.as_array().unwrap().len(), 2);
    assert_eq!(direct[0]["prices"]["economy"], 200);
    assert!(direct[0].get("dates").is_none());
    let stops = call(
        &mut db,
        "search_onestop_flight",
        json!({"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}),
    )
    .unwrap();
    let stops: Value = serde_json::from_str(&stops).unwrap();
    // HAT001 lands at 10:00 before HAT002 leaves at 12:00; HAT003 lands too late.
    assert_eq!(stops.as_array().unwrap().len(), 1);
    assert_eq!(
        (
            stops[0][0]["flight_number"].clone(),
            stops[0][1]["date"].clone()
        ),
        (json!("HAT001"), json!("2024-05-20"))
    );
    let airports: Value =
        serde_json::from_str(&call(&mut db, "list_all_airports", json!({})).unwrap()).unwrap();
    assert_eq!(airports["SEA"], "Seattle");
    assert_eq!(
        call(&mut db, "get_order_details", json!({"order_id": "#W1"}))
            .unwrap_err()
            .kind(),
        "unknown_tool"
    );
    assert_eq!(tools::function_specs(Kind::Airline).len(), 14);
    assert_eq!(db, records());
}
