//! Tools that change the records: orders cancelled, modified, returned or exchanged, a user's
//! address. Every check runs before the first change, so a refused call changes nothing.

use crate::db::{Db, round2};
use crate::tools::args::clip;
use crate::tools::{Args, ToolError, ToolResult};
use serde_json::{Map, Value, json};

const REASONS: [&str; 2] = ["no longer needed", "ordered by mistake"];

fn not_found(what: &str) -> ToolError {
    ToolError::NotFound(format!("{what} not found"))
}

fn refused(why: &str) -> ToolError {
    ToolError::NotAllowed(why.to_owned())
}

fn order<'a>(db: &'a Db, id: &str) -> Result<&'a Value, ToolError> {
    db.table("orders")
        .get(id)
        .map(|order| &**order)
        .ok_or_else(|| not_found("order"))
}

fn order_mut<'a>(db: &'a mut Db, id: &str) -> Result<&'a mut Value, ToolError> {
    db.record_mut("orders", id)
        .ok_or_else(|| not_found("order"))
}

fn status(order: &Value) -> &str {
    order["status"].as_str().unwrap_or_default()
}

/// The payment methods of the user who placed `order`.
fn methods_of<'a>(db: &'a Db, order: &Value) -> Result<&'a Map<String, Value>, ToolError> {
    let user = order["user_id"].as_str().unwrap_or_default();
    db.table("users")
        .get(user)
        .and_then(|u| u["payment_methods"].as_object())
        .ok_or_else(|| not_found("user"))
}

fn method_mut<'a>(db: &'a mut Db, user: &str, method: &str) -> Option<&'a mut Value> {
    db.record_mut("users", user)?["payment_methods"].get_mut(method)
}

fn is_gift_card(method: &Value) -> bool {
    method["source"].as_str() == Some("gift_card")
}

fn balance(method: &Value) -> f64 {
    method["balance"].as_f64().unwrap_or(0.0)
}

/// Adds `amount` to the balance of a gift card (rounded to cents).
fn credit(method: &mut Value, amount: f64) {
    let balance = round2(balance(method) + amount);
    method["balance"] = json!(balance);
}

fn amount(payment: &Value) -> f64 {
    payment["amount"].as_f64().unwrap_or(0.0)
}

/// The address arguments, as an address record.
fn address(args: &Args) -> Result<Value, ToolError> {
    let mut record = Map::new();
    for key in ["address1", "address2", "city", "state", "country", "zip"] {
        record.insert(key.to_owned(), Value::String(args.text(key)?.to_owned()));
    }
    Ok(Value::Object(record))
}

/// Checks that every id of `item_ids` is an item of `order`, as often as it is listed.
fn check_items(order: &Value, item_ids: &[&str]) -> Result<(), ToolError> {
    let held: Vec<&str> = order["items"]
        .as_array()
        .map(|items| items.iter().filter_map(|i| i["item_id"].as_str()).collect())
        .unwrap_or_default();
    for id in item_ids {
        let wanted = item_ids.iter().filter(|x| *x == id).count();
        if wanted > held.iter().filter(|x| *x == id).count() {
            return Err(ToolError::NotFound(format!("item {} not found", clip(id))));
        }
    }
    Ok(())
}

/// For each `(old, new)` pair: the available variant `new` of `old`'s product. Returns the
/// variants and the price difference (new minus old).
fn swaps(
    db: &Db,
    order: &Value,
    item_ids: &[&str],
    new_item_ids: &[&str],
) -> Result<(Vec<Value>, f64), ToolError> {
    if item_ids.len() != new_item_ids.len() {
        return Err(ToolError::BadArguments(
            "the number of items to change and of new items should match".into(),
        ));
    }
    let mut variants = Vec::new();
    let mut difference = 0.0;
    for (old, new) in item_ids.iter().zip(new_item_ids) {
        let item = order["items"]
            .as_array()
            .and_then(|items| items.iter().find(|i| i["item_id"].as_str() == Some(old)))
            .ok_or_else(|| ToolError::NotFound(format!("item {} not found", clip(old))))?;
        let product = item["product_id"].as_str().unwrap_or_default();
        let variant = db
            .table("products")
            .get(product)
            .and_then(|p| p["variants"].get(*new))
            .filter(|v| v["available"].as_bool() == Some(true))
            .ok_or_else(|| {
                ToolError::NotFound(format!("new item {} not found or available", clip(new)))
            })?;
        difference +=
            variant["price"].as_f64().unwrap_or(0.0) - item["price"].as_f64().unwrap_or(0.0);
        variants.push(variant.clone());
    }
    Ok((variants, difference))
}

/// `cancel_pending_order`: the order cancelled, each payment refunded (gift cards at once).
pub fn cancel_pending_order(db: &mut Db, args: &Args) -> ToolResult {
    let id = args.text("order_id")?;
    let reason = args.text("reason")?;
    let found = order(db, id)?;
    if status(found) != "pending" {
        return Err(refused("non-pending order cannot be cancelled"));
    }
    if !REASONS.contains(&reason) {
        return Err(ToolError::BadArguments(format!(
            "invalid reason (give one of: {})",
            REASONS.join(", ")
        )));
    }
    let user = found["user_id"].as_str().unwrap_or_default().to_owned();
    let payments: Vec<Value> = found["payment_history"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut refunds = Vec::new();
    for payment in &payments {
        let method = payment["payment_method_id"].as_str().unwrap_or_default();
        refunds.push(json!({
            "transaction_type": "refund",
            "amount": payment["amount"],
            "payment_method_id": method,
        }));
        if method.contains("gift_card")
            && let Some(card) = method_mut(db, &user, method)
        {
            credit(card, amount(payment));
        }
    }
    let target = order_mut(db, id)?;
    target["status"] = json!("cancelled");
    target["cancel_reason"] = json!(reason);
    if let Some(history) = target["payment_history"].as_array_mut() {
        history.extend(refunds);
    }
    Ok(target.to_string())
}

/// `modify_pending_order_address`.
pub fn modify_pending_order_address(db: &mut Db, args: &Args) -> ToolResult {
    let id = args.text("order_id")?;
    let new = address(args)?;
    let target = order_mut(db, id)?;
    if status(target) != "pending" {
        return Err(refused("non-pending order cannot be modified"));
    }
    target["address"] = new;
    Ok(target.to_string())
}

/// `modify_user_address`.
pub fn modify_user_address(db: &mut Db, args: &Args) -> ToolResult {
    let id = args.text("user_id")?;
    let new = address(args)?;
    let user = db
        .record_mut("users", id)
        .ok_or_else(|| not_found("user"))?;
    user["address"] = new;
    Ok(user.to_string())
}

/// `modify_pending_order_payment`: the one payment moved to another method of the user.
pub fn modify_pending_order_payment(db: &mut Db, args: &Args) -> ToolResult {
    let id = args.text("order_id")?;
    let method_id = args.text("payment_method_id")?;
    let found = order(db, id)?;
    if status(found) != "pending" {
        return Err(refused("non-pending order cannot be modified"));
    }
    let method = methods_of(db, found)?
        .get(method_id)
        .ok_or_else(|| not_found("payment method"))?;
    let history = found["payment_history"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let [first] = history.as_slice() else {
        return Err(refused(
            "there should be exactly one payment for a pending order",
        ));
    };
    if first["transaction_type"].as_str() != Some("payment") {
        return Err(refused(
            "there should be exactly one payment for a pending order",
        ));
    }
    let old_method = first["payment_method_id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    if old_method == method_id {
        return Err(refused(
            "the new payment method should be different from the current one",
        ));
    }
    let paid = amount(first);
    if is_gift_card(method) && balance(method) < paid {
        return Err(refused(
            "insufficient gift card balance to pay for the order",
        ));
    }
    let user = found["user_id"].as_str().unwrap_or_default().to_owned();
    if let Some(card) = method_mut(db, &user, method_id).filter(|m| is_gift_card(m)) {
        credit(card, -paid);
    }
    if old_method.contains("gift_card")
        && let Some(card) = method_mut(db, &user, &old_method)
    {
        credit(card, paid);
    }
    let target = order_mut(db, id)?;
    if let Some(history) = target["payment_history"].as_array_mut() {
        history.push(json!({"transaction_type": "payment", "amount": first["amount"], "payment_method_id": method_id}));
        history.push(json!({"transaction_type": "refund", "amount": first["amount"], "payment_method_id": old_method}));
    }
    Ok(target.to_string())
}

/// `modify_pending_order_items`: items changed to other variants, the difference paid or
/// refunded; the order becomes `pending (item modified)` (so only once).
pub fn modify_pending_order_items(db: &mut Db, args: &Args) -> ToolResult {
    let id = args.text("order_id")?;
    let item_ids = args.strings("item_ids")?;
    let new_item_ids = args.strings("new_item_ids")?;
    let method_id = args.text("payment_method_id")?;
    let found = order(db, id)?;
    if status(found) != "pending" {
        return Err(refused("non-pending order cannot be modified"));
    }
    check_items(found, &item_ids)?;
    let (variants, difference) = swaps(db, found, &item_ids, &new_item_ids)?;
    let method = methods_of(db, found)?
        .get(method_id)
        .ok_or_else(|| not_found("payment method"))?;
    if is_gift_card(method) && balance(method) < difference {
        return Err(refused(
            "insufficient gift card balance to pay for the new item",
        ));
    }
    let user = found["user_id"].as_str().unwrap_or_default().to_owned();
    if let Some(card) = method_mut(db, &user, method_id).filter(|m| is_gift_card(m)) {
        credit(card, -difference);
    }
    let target = order_mut(db, id)?;
    if let Some(history) = target["payment_history"].as_array_mut() {
        history.push(json!({
            "transaction_type": if difference > 0.0 { "payment" } else { "refund" },
            "amount": difference.abs(),
            "payment_method_id": method_id,
        }));
    }
    for (old, variant) in item_ids.iter().zip(variants) {
        let item = target["items"].as_array_mut().and_then(|items| {
            items
                .iter_mut()
                .find(|i| i["item_id"].as_str() == Some(old))
        });
        if let Some(item) = item {
            item["item_id"] = variant["item_id"].clone();
            item["price"] = variant["price"].clone();
            item["options"] = variant["options"].clone();
        }
    }
    target["status"] = json!("pending (item modified)");
    Ok(target.to_string())
}

/// `return_delivered_order_items`: the order becomes `return requested`, refund to the
/// original method or a gift card.
pub fn return_delivered_order_items(db: &mut Db, args: &Args) -> ToolResult {
    let id = args.text("order_id")?;
    let item_ids = args.strings("item_ids")?;
    let method_id = args.text("payment_method_id")?;
    let found = order(db, id)?;
    if status(found) != "delivered" {
        return Err(refused("non-delivered order cannot be returned"));
    }
    if !methods_of(db, found)?.contains_key(method_id) {
        return Err(not_found("payment method"));
    }
    let original = found["payment_history"][0]["payment_method_id"].as_str();
    if !method_id.contains("gift_card") && original != Some(method_id) {
        return Err(refused(
            "payment method should be either the original payment method or a gift card",
        ));
    }
    check_items(found, &item_ids)?;
    let mut sorted = item_ids.clone();
    sorted.sort();
    let target = order_mut(db, id)?;
    target["status"] = json!("return requested");
    target["return_items"] = json!(sorted);
    target["return_payment_method_id"] = json!(method_id);
    Ok(target.to_string())
}

/// `exchange_delivered_order_items`: the order becomes `exchange requested` with the new
/// items and the price difference.
pub fn exchange_delivered_order_items(db: &mut Db, args: &Args) -> ToolResult {
    let id = args.text("order_id")?;
    let item_ids = args.strings("item_ids")?;
    let new_item_ids = args.strings("new_item_ids")?;
    let method_id = args.text("payment_method_id")?;
    let found = order(db, id)?;
    if status(found) != "delivered" {
        return Err(refused("non-delivered order cannot be exchanged"));
    }
    check_items(found, &item_ids)?;
    let (_, difference) = swaps(db, found, &item_ids, &new_item_ids)?;
    let difference = round2(difference);
    let method = methods_of(db, found)?
        .get(method_id)
        .ok_or_else(|| not_found("payment method"))?;
    if is_gift_card(method) && balance(method) < difference {
        return Err(refused(
            "insufficient gift card balance to pay for the price difference",
        ));
    }
    let (mut old, mut new) = (item_ids.clone(), new_item_ids.clone());
    old.sort();
    new.sort();
    let target = order_mut(db, id)?;
    target["status"] = json!("exchange requested");
    target["exchange_items"] = json!(old);
    target["exchange_new_items"] = json!(new);
    target["exchange_payment_method_id"] = json!(method_id);
    target["exchange_price_difference"] = json!(difference);
    Ok(target.to_string())
}
