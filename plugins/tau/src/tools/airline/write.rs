//! The airline's tools that change the records: reservations booked, cancelled and changed
//! (flights, baggage, passengers), certificates sent. The rules, prices and the records left
//! follow TAU-bench's airline tools; every check runs before the first change, so a refused
//! call changes nothing.

use super::num::Num;
use crate::db::Db;
use crate::tools::args::clip;
use crate::tools::{Args, ToolError, ToolResult};
use serde_json::{Map, Value, json};

/// The ids a booking takes, in turn (TAU-bench's: a task books at most three).
const NEW_RESERVATION_IDS: [&str; 3] = ["HATHAT", "HATHAU", "HATHAV"];
/// The ids a sent certificate takes, in turn.
const NEW_CERTIFICATE_IDS: [&str; 3] = [
    "certificate_3221322",
    "certificate_3221323",
    "certificate_3221324",
];
/// When every booking of an episode is made.
const BOOKED_AT: &str = "2024-05-15T15:00:00";
const CABINS: [&str; 3] = ["basic_economy", "economy", "business"];
/// Price of each checked bag past the free ones, and of insurance per passenger.
const BAG_PRICE: i64 = 50;
const INSURANCE_PRICE: i64 = 30;

fn not_found(what: String) -> ToolError {
    ToolError::NotFound(what)
}

fn refused(why: String) -> ToolError {
    ToolError::NotAllowed(why)
}

fn num_at(value: &Value, key: &str) -> Num {
    Num::of(&value[key]).unwrap_or(Num::Int(0))
}

fn text_at<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or_default()
}

fn reservation<'a>(db: &'a Db, args: &Args) -> Result<(String, &'a Value), ToolError> {
    let id = args.text("reservation_id")?;
    db.table("reservations")
        .get(id)
        .map(|r| (id.to_owned(), &**r))
        .ok_or_else(|| not_found("reservation not found".into()))
}

fn reservation_mut<'a>(db: &'a mut Db, id: &str) -> &'a mut Value {
    db.record_mut("reservations", id).expect("looked up before")
}

fn cabin<'a>(args: &Args<'a>) -> Result<&'a str, ToolError> {
    let cabin = args.text("cabin")?;
    if CABINS.contains(&cabin) {
        Ok(cabin)
    } else {
        Err(ToolError::BadArguments(format!(
            "argument `cabin` must be one of {}, not {}",
            CABINS.join(", "),
            clip(cabin)
        )))
    }
}

fn passengers_of(value: &Value) -> i64 {
    value["passengers"].as_array().map_or(0, |p| p.len() as i64)
}

/// A flight leg as a booking stores it: the caller's object with the day's price in `cabin`
/// and the flight's origin and destination, once the flight is checked to be on sale with
/// `seats` seats free.
fn priced_leg(
    db: &Db,
    leg: &Args,
    cabin: &str,
    seats: i64,
) -> Result<Map<String, Value>, ToolError> {
    let number = leg.text("flight_number")?;
    let date = leg.text("date")?;
    let flight = db
        .table("flights")
        .get(number)
        .ok_or_else(|| not_found(format!("flight {} not found", clip(number))))?;
    let day = flight["dates"].get(date).ok_or_else(|| {
        not_found(format!(
            "flight {} not found on date {}",
            clip(number),
            clip(date)
        ))
    })?;
    if text_at(day, "status") != "available" {
        return Err(refused(format!(
            "flight {number} not available on date {}",
            clip(date)
        )));
    }
    if num_at(&day["available_seats"], cabin)
        .cmp_value(Num::Int(seats))
        .is_lt()
    {
        return Err(refused(format!("not enough seats on flight {number}")));
    }
    let mut stored = leg.object().clone();
    stored.insert("price".into(), day["prices"][cabin].clone());
    stored.insert("origin".into(), flight["origin"].clone());
    stored.insert("destination".into(), flight["destination"].clone());
    Ok(stored)
}

/// The payment method `id` of `user`, checked for paying a change: certificates cannot, and a
/// gift card must hold `price`.
fn change_payment<'a>(
    db: &'a Db,
    user: &str,
    id: &str,
    price: Num,
) -> Result<&'a Value, ToolError> {
    let method = db
        .table("users")
        .get(user)
        .and_then(|u| u["payment_methods"].get(id))
        .ok_or_else(|| not_found("payment method not found".into()))?;
    match text_at(method, "source") {
        "certificate" => Err(refused(
            "certificate cannot be used to update reservation".into(),
        )),
        "gift_card" if num_at(method, "amount").cmp_value(price).is_lt() => {
            Err(refused("gift card balance is not enough".into()))
        }
        _ => Ok(method),
    }
}

/// Charges `price` to payment method `id` of `user` for a change of `reservation`: a gift
/// card's balance falls by it, and a non-zero price enters the payment history.
fn charge_change(db: &mut Db, user: &str, id: &str, price: Num, reservation: &str) {
    if let Some(method) = db
        .record_mut("users", user)
        .and_then(|u| u["payment_methods"].get_mut(id))
        .filter(|m| text_at(m, "source") == "gift_card")
    {
        method["amount"] = num_at(method, "amount").sub(price).to_value();
    }
    if !price.is_zero() {
        let record = reservation_mut(db, reservation);
        if let Some(history) = record["payment_history"].as_array_mut() {
            history.push(json!({"payment_id": id, "amount": price.to_value()}));
        }
    }
}

/// `book_reservation`: a new reservation for a user, paid in full by their payment methods.
pub fn book_reservation(db: &mut Db, args: &Args) -> ToolResult {
    let user_id = args.text("user_id")?;
    let user = db
        .table("users")
        .get(user_id)
        .ok_or_else(|| not_found("user not found".into()))?;
    for key in ["origin", "destination", "flight_type", "insurance"] {
        args.text(key)?;
    }
    let cabin = cabin(args)?;
    let passengers = args.objects("passengers")?.len() as i64;
    let payments = args.objects("payment_methods")?;
    let total_baggages = args.int("total_baggages")?;
    let nonfree_baggages = args.int("nonfree_baggages")?;
    let Some(id) = NEW_RESERVATION_IDS
        .iter()
        .find(|id| !db.table("reservations").contains_key(**id))
    else {
        return Err(refused(format!(
            "an episode books at most {} reservations",
            NEW_RESERVATION_IDS.len()
        )));
    };

    let mut legs = Vec::new();
    let mut price = Num::Int(0);
    for leg in args.objects("flights")? {
        let stored = priced_leg(db, &leg, cabin, passengers)?;
        price =
            price.add(num_at(&Value::Object(stored.clone()), "price").mul(Num::Int(passengers)));
        legs.push(Value::Object(stored));
    }
    if args.text("insurance")? == "yes" {
        price = price.add(Num::Int(INSURANCE_PRICE * passengers));
    }
    price = price.add(Num::Int(BAG_PRICE).mul(Num::Int(nonfree_baggages)));

    let methods = &user["payment_methods"];
    let mut paid = Num::Int(0);
    let mut certificates = Vec::new();
    for payment in &payments {
        let payment_id = payment.text("payment_id")?;
        let amount = Num::of(payment.number("amount")?).unwrap_or(Num::Int(0));
        let method = methods
            .get(payment_id)
            .ok_or_else(|| not_found(format!("payment method {} not found", clip(payment_id))))?;
        let source = text_at(method, "source");
        if (source == "gift_card" || source == "certificate")
            && num_at(method, "amount").cmp_value(amount).is_lt()
        {
            return Err(refused(format!(
                "not enough balance in payment method {payment_id}"
            )));
        }
        if source == "certificate" {
            if certificates.contains(&payment_id) {
                return Err(refused(format!(
                    "certificate {payment_id} is listed twice; a certificate pays once"
                )));
            }
            certificates.push(payment_id);
        }
        paid = paid.add(amount);
    }
    if !paid.cmp_value(price).is_eq() {
        return Err(refused(format!(
            "payment amount does not add up, total price is {price}, but paid {paid}"
        )));
    }

    let record = json!({
        "reservation_id": id,
        "user_id": user_id,
        "origin": args.value("origin")?,
        "destination": args.value("destination")?,
        "flight_type": args.value("flight_type")?,
        "cabin": cabin,
        "flights": legs,
        "passengers": args.value("passengers")?,
        "payment_history": args.value("payment_methods")?,
        "created_at": BOOKED_AT,
        "total_baggages": total_baggages,
        "nonfree_baggages": nonfree_baggages,
        "insurance": args.value("insurance")?,
    });
    let user = db.record_mut("users", user_id).expect("looked up before");
    for payment in &payments {
        let payment_id = payment.text("payment_id")?;
        let amount = Num::of(payment.number("amount")?).unwrap_or(Num::Int(0));
        let methods = &mut user["payment_methods"];
        match text_at(&methods[payment_id], "source") {
            "gift_card" => {
                let left = num_at(&methods[payment_id], "amount").sub(amount);
                methods[payment_id]["amount"] = left.to_value();
            }
            "certificate" => {
                if let Some(methods) = methods.as_object_mut() {
                    methods.remove(payment_id);
                }
            }
            _ => {}
        }
    }
    if let Some(ids) = user["reservations"].as_array_mut() {
        ids.push(json!(id));
    }
    let text = record.to_string();
    db.insert("reservations", (*id).to_owned(), record);
    Ok(text)
}

/// `cancel_reservation`: every payment refunded (a negative entry each) and the status
/// `cancelled`.
pub fn cancel_reservation(db: &mut Db, args: &Args) -> ToolResult {
    let (id, found) = reservation(db, args)?;
    let refunds: Vec<Value> = found["payment_history"]
        .as_array()
        .map(|history| {
            history
                .iter()
                .map(|p| json!({"payment_id": p["payment_id"], "amount": num_at(p, "amount").neg().to_value()}))
                .collect()
        })
        .unwrap_or_default();
    let record = reservation_mut(db, &id);
    if let Some(history) = record["payment_history"].as_array_mut() {
        history.extend(refunds);
    }
    record["status"] = json!("cancelled");
    Ok(record.to_string())
}

/// `update_reservation_baggages`: new bag counts, the bags past the old non-free count paid.
pub fn update_reservation_baggages(db: &mut Db, args: &Args) -> ToolResult {
    let (id, found) = reservation(db, args)?;
    let total_baggages = args.int("total_baggages")?;
    let nonfree_baggages = args.int("nonfree_baggages")?;
    let payment_id = args.text("payment_id")?;
    let more = Num::Int(nonfree_baggages).sub(num_at(found, "nonfree_baggages"));
    let price = if more.cmp_value(Num::Int(0)).is_gt() {
        Num::Int(BAG_PRICE).mul(more)
    } else {
        Num::Int(0)
    };
    let user = text_at(found, "user_id").to_owned();
    change_payment(db, &user, payment_id, price)?;
    let record = reservation_mut(db, &id);
    record["total_baggages"] = json!(total_baggages);
    record["nonfree_baggages"] = json!(nonfree_baggages);
    charge_change(db, &user, payment_id, price, &id);
    Ok(db.table("reservations")[&id].to_string())
}

/// `update_reservation_flights`: the reservation's flights replaced, the fare difference for
/// every passenger paid (or refunded, when negative) with one payment method. A leg already in
/// the reservation keeps its price when the cabin stays.
pub fn update_reservation_flights(db: &mut Db, args: &Args) -> ToolResult {
    let (id, found) = reservation(db, args)?;
    let cabin = cabin(args)?;
    let payment_id = args.text("payment_id")?;
    let passengers = passengers_of(found);
    let held = found["flights"].as_array().cloned().unwrap_or_default();
    let same_cabin = text_at(found, "cabin") == cabin;
    let mut legs = Vec::new();
    let mut price = Num::Int(0);
    for leg in args.objects("flights")? {
        let number = leg.text("flight_number")?;
        let date = leg.text("date")?;
        let kept = held.iter().find(|f| {
            same_cabin && text_at(f, "flight_number") == number && text_at(f, "date") == date
        });
        let stored = match kept {
            Some(kept) => {
                let mut stored = leg.object().clone();
                for key in ["price", "origin", "destination"] {
                    stored.insert(key.into(), kept[key].clone());
                }
                stored
            }
            None => priced_leg(db, &leg, cabin, passengers)?,
        };
        price =
            price.add(num_at(&Value::Object(stored.clone()), "price").mul(Num::Int(passengers)));
        legs.push(Value::Object(stored));
    }
    let old = held
        .iter()
        .fold(Num::Int(0), |sum, f| sum.add(num_at(f, "price")));
    price = price.sub(old.mul(Num::Int(passengers)));
    let user = text_at(found, "user_id").to_owned();
    change_payment(db, &user, payment_id, price)?;
    reservation_mut(db, &id)["flights"] = Value::Array(legs);
    charge_change(db, &user, payment_id, price, &id);
    Ok(db.table("reservations")[&id].to_string())
}

/// `update_reservation_passengers`: the passengers replaced by as many others.
pub fn update_reservation_passengers(db: &mut Db, args: &Args) -> ToolResult {
    let (id, found) = reservation(db, args)?;
    let given = args.objects("passengers")?.len() as i64;
    if given != passengers_of(found) {
        return Err(refused("number of passengers does not match".into()));
    }
    let passengers = args.value("passengers")?.clone();
    let record = reservation_mut(db, &id);
    record["passengers"] = passengers;
    Ok(record.to_string())
}

/// `send_certificate`: a certificate of `amount` added to a user's payment methods.
pub fn send_certificate(db: &mut Db, args: &Args) -> ToolResult {
    let user_id = args.text("user_id")?;
    let amount = args.number("amount")?.clone();
    let user = db
        .record_mut("users", user_id)
        .ok_or_else(|| not_found("user not found".into()))?;
    let Some(methods) = user["payment_methods"].as_object_mut() else {
        return Err(not_found("user has no payment methods".into()));
    };
    let Some(id) = NEW_CERTIFICATE_IDS
        .iter()
        .find(|id| !methods.contains_key(**id))
    else {
        return Err(refused(format!(
            "an episode sends a user at most {} certificates",
            NEW_CERTIFICATE_IDS.len()
        )));
    };
    methods.insert(
        (*id).to_owned(),
        json!({"source": "certificate", "amount": amount, "id": id}),
    );
    Ok(format!(
        "Certificate {id} added to user {user_id} with amount {}.",
        Num::of(&amount).map_or_else(|| amount.to_string(), |n| n.to_string())
    ))
}
