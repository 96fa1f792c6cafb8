//! TAU-bench's retail domain: an online shop's users, orders and products.

mod read;
mod write;

use super::{Args, ToolDef, ToolResult};
use crate::db::Db;
use serde_json::{Value, json};

/// Runs retail tool `name`; `None` when the domain has no such tool.
pub fn run(db: &mut Db, name: &str, args: &Args) -> Option<ToolResult> {
    Some(match name {
        "find_user_id_by_email" => read::find_user_id_by_email(db, args),
        "find_user_id_by_name_zip" => read::find_user_id_by_name_zip(db, args),
        "get_user_details" => read::get_user_details(db, args),
        "get_order_details" => read::get_order_details(db, args),
        "get_product_details" => read::get_product_details(db, args),
        "list_all_product_types" => read::list_all_product_types(db),
        "cancel_pending_order" => write::cancel_pending_order(db, args),
        "modify_pending_order_address" => write::modify_pending_order_address(db, args),
        "modify_pending_order_items" => write::modify_pending_order_items(db, args),
        "modify_pending_order_payment" => write::modify_pending_order_payment(db, args),
        "modify_user_address" => write::modify_user_address(db, args),
        "return_delivered_order_items" => write::return_delivered_order_items(db, args),
        "exchange_delivered_order_items" => write::exchange_delivered_order_items(db, args),
        _ => return None,
    })
}

/// The retail tools with what each takes.
pub fn tools() -> Vec<ToolDef> {
    let s = super::text;
    let ids = |d: &str| json!({"type": "array", "items": {"type": "string"}, "description": d});
    let address = || {
        json!({
            "address1": s("The first line of the address, such as '123 Main St'."),
            "address2": s("The second line of the address, such as 'Apt 1' or ''."),
            "city": s("The city."),
            "state": s("The state, such as 'CA'."),
            "country": s("The country, such as 'USA'."),
            "zip": s("The zip code, such as '12345'."),
        })
    };
    let with = |mut base: Value, extra: Value| {
        if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
            b.extend(e.clone());
        }
        base
    };
    let address_keys = ["address1", "address2", "city", "state", "country", "zip"];
    let tools: Vec<ToolDef> = vec![
        (
            "find_user_id_by_email",
            "Find a customer's user id by their email.",
            json!({"email": s("The email, such as 'someone@example.com'.")}),
            vec!["email"],
        ),
        (
            "find_user_id_by_name_zip",
            "Find a customer's user id by first name, last name and zip code.",
            json!({"first_name": s("The first name."), "last_name": s("The last name."), "zip": s("The zip code.")}),
            vec!["first_name", "last_name", "zip"],
        ),
        (
            "get_user_details",
            "The details of a customer: name, address, email, payment methods and orders.",
            json!({"user_id": s("The user id, such as 'ava_lopez_1234'.")}),
            vec!["user_id"],
        ),
        (
            "get_order_details",
            "The status and details of an order.",
            json!({"order_id": s("The order id, such as '#W0000000' (with the '#').")}),
            vec!["order_id"],
        ),
        (
            "get_product_details",
            "The details of a product type and every variant of it (options, availability, price).",
            json!({"product_id": s("The product id (not an item id).")}),
            vec!["product_id"],
        ),
        (
            "list_all_product_types",
            "The name and product id of every product type the shop sells.",
            json!({}),
            vec![],
        ),
        (
            "cancel_pending_order",
            "Cancel a pending order. Refunds go to the original payment methods (gift cards at once, others in 5-7 business days). Only after the customer confirmed.",
            json!({"order_id": s("The order id, with the '#'."), "reason": s("'no longer needed' or 'ordered by mistake'.")}),
            vec!["order_id", "reason"],
        ),
        (
            "modify_pending_order_address",
            "Change the shipping address of a pending order. Only after the customer confirmed.",
            with(
                json!({"order_id": s("The order id, with the '#'.")}),
                address(),
            ),
            [vec!["order_id"], address_keys.to_vec()].concat(),
        ),
        (
            "modify_pending_order_items",
            "Change items of a pending order to other variants of the same products, paying or refunding the difference with a payment method of the customer. Once per order. Only after the customer confirmed.",
            json!({"order_id": s("The order id, with the '#'."),
                   "item_ids": ids("The item ids to change; an id may repeat."),
                   "new_item_ids": ids("The new item ids, in the same order."),
                   "payment_method_id": s("A payment method id of the customer, such as 'gift_card_0000000'.")}),
            vec!["order_id", "item_ids", "new_item_ids", "payment_method_id"],
        ),
        (
            "modify_pending_order_payment",
            "Pay a pending order with another payment method of the customer. Only after the customer confirmed.",
            json!({"order_id": s("The order id, with the '#'."), "payment_method_id": s("The new payment method id.")}),
            vec!["order_id", "payment_method_id"],
        ),
        (
            "modify_user_address",
            "Change a customer's default address. Only after the customer confirmed.",
            with(json!({"user_id": s("The user id.")}), address()),
            [vec!["user_id"], address_keys.to_vec()].concat(),
        ),
        (
            "return_delivered_order_items",
            "Return items of a delivered order, refunded to the original payment method or a gift card of the customer. Only after the customer confirmed.",
            json!({"order_id": s("The order id, with the '#'."),
                   "item_ids": ids("The item ids to return; an id may repeat."),
                   "payment_method_id": s("The original payment method or a gift card of the customer.")}),
            vec!["order_id", "item_ids", "payment_method_id"],
        ),
        (
            "exchange_delivered_order_items",
            "Exchange items of a delivered order for other variants of the same products, paying or refunding the difference with a payment method of the customer. Once per order. Only after the customer confirmed.",
            json!({"order_id": s("The order id, with the '#'."),
                   "item_ids": ids("The item ids to exchange; an id may repeat."),
                   "new_item_ids": ids("The new item ids, in the same order."),
                   "payment_method_id": s("A payment method id of the customer.")}),
            vec!["order_id", "item_ids", "new_item_ids", "payment_method_id"],
        ),
    ];
    tools
}
