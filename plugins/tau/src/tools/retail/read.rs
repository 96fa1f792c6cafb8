//! Tools that only read the records.

use crate::db::{Db, Table};
use crate::tools::args::clip;
use crate::tools::{Args, ToolError, ToolResult};
use serde_json::{Map, Value};

fn not_found(what: &str) -> ToolError {
    ToolError::NotFound(format!("{what} not found"))
}

/// A record of `table` by id, as JSON text.
fn record(table: &Table, id: &str, what: &str) -> ToolResult {
    table
        .get(id)
        .map(|r| r.to_string())
        .ok_or_else(|| not_found(what))
}

fn text_at<'a>(value: &'a Value, path: &[&str]) -> &'a str {
    path.iter()
        .fold(value, |v, key| &v[*key])
        .as_str()
        .unwrap_or_default()
}

/// `find_user_id_by_email`: the user whose email matches, ignoring case.
pub fn find_user_id_by_email(db: &Db, args: &Args) -> ToolResult {
    let email = args.text("email")?.to_lowercase();
    db.table("users")
        .iter()
        .find(|(_, user)| text_at(user, &["email"]).to_lowercase() == email)
        .map(|(id, _)| id.clone())
        .ok_or_else(|| not_found("user"))
}

/// `find_user_id_by_name_zip`: the user with that first and last name (ignoring case) and zip.
pub fn find_user_id_by_name_zip(db: &Db, args: &Args) -> ToolResult {
    let first = args.text("first_name")?.to_lowercase();
    let last = args.text("last_name")?.to_lowercase();
    let zip = args.text("zip")?;
    db.table("users")
        .iter()
        .find(|(_, user)| {
            text_at(user, &["name", "first_name"]).to_lowercase() == first
                && text_at(user, &["name", "last_name"]).to_lowercase() == last
                && text_at(user, &["address", "zip"]) == zip
        })
        .map(|(id, _)| id.clone())
        .ok_or_else(|| not_found("user"))
}

/// `get_user_details`.
pub fn get_user_details(db: &Db, args: &Args) -> ToolResult {
    record(db.table("users"), args.text("user_id")?, "user")
}

/// `get_order_details`.
pub fn get_order_details(db: &Db, args: &Args) -> ToolResult {
    record(db.table("orders"), args.text("order_id")?, "order")
}

/// `get_product_details`.
pub fn get_product_details(db: &Db, args: &Args) -> ToolResult {
    let id = args.text("product_id")?;
    record(db.table("products"), id, "product")
        .map_err(|_| ToolError::NotFound(format!("product {} not found", clip(id))))
}

/// `list_all_product_types`: product name to product id, sorted by name.
pub fn list_all_product_types(db: &Db) -> ToolResult {
    let mut pairs: Vec<(&str, &str)> = db
        .table("products")
        .values()
        .map(|p| (text_at(p, &["name"]), text_at(p, &["product_id"])))
        .collect();
    pairs.sort();
    let map: Map<String, Value> = pairs
        .into_iter()
        .map(|(name, id)| (name.to_owned(), Value::String(id.to_owned())))
        .collect();
    Ok(Value::Object(map).to_string())
}
