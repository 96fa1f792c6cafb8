"""Writes the retail domain of `tau:Retail-v0`: products, users, orders, tasks and the policy.

    python3 plugins/tau/data/generate.py        # rewrites plugins/tau/data/retail.jsonl

Deterministic (one seeded generator, no clock): the files it writes are committed, and running it
again gives the same bytes. The records follow TAU-bench's retail schema (users, orders and
products keyed by id, payment methods keyed by id, orders with items, fulfillments and a payment
history), so the same tools serve this domain and TAU-bench's own data. Every task's gold actions
are valid on the initial database (the plugin's tests check it), and its outputs are facts read
from the records.
"""

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261128)

PRODUCTS = [
    ("T-Shirt", (12, 40), {"color": ["red", "blue", "black", "white", "green"], "size": ["S", "M", "L", "XL"], "material": ["cotton", "linen"]}),
    ("Desk Lamp", (25, 120), {"color": ["black", "white", "silver"], "brightness": ["low", "medium", "high"], "power source": ["USB", "AC adapter", "battery"]}),
    ("Backpack", (35, 180), {"color": ["black", "grey", "navy", "olive"], "size": ["small", "medium", "large"], "material": ["nylon", "leather", "polyester"]}),
    ("Water Bottle", (9, 45), {"capacity": ["500ml", "750ml", "1000ml"], "material": ["stainless steel", "glass", "plastic"], "color": ["blue", "black", "red"]}),
    ("Running Shoes", (60, 190), {"size": ["7", "8", "9", "10", "11"], "color": ["black", "white", "red", "yellow"], "material": ["mesh", "synthetic"]}),
    ("Headphones", (20, 350), {"type": ["in-ear", "on-ear", "over-ear"], "connectivity": ["wired", "wireless"], "color": ["black", "white", "blue"]}),
    ("Coffee Maker", (30, 260), {"color": ["black", "stainless steel", "red"], "capacity": ["1 cup", "4 cups", "8 cups", "12 cups"], "type": ["drip", "espresso", "french press"]}),
    ("Yoga Mat", (15, 90), {"thickness": ["4mm", "6mm", "8mm"], "material": ["PVC", "natural rubber", "TPE"], "color": ["purple", "green", "pink", "blue"]}),
    ("Notebook", (3, 25), {"size": ["A5", "A4", "pocket"], "cover": ["hard", "soft"], "ruling": ["lined", "dotted", "blank"]}),
    ("Wireless Mouse", (12, 95), {"color": ["black", "white", "grey"], "grip": ["palm", "claw", "vertical"], "sensor": ["optical", "laser"]}),
    ("Sunglasses", (20, 210), {"frame": ["metal", "plastic", "acetate"], "lens": ["polarized", "non-polarized"], "color": ["black", "brown", "silver"]}),
    ("Office Chair", (90, 520), {"material": ["mesh", "fabric", "leather"], "color": ["black", "grey", "blue"], "armrest": ["fixed", "adjustable", "none"]}),
]

FIRST = ["Ava", "Liam", "Mia", "Noah", "Zoe", "Omar", "Lena", "Ravi", "Ines", "Theo", "Yara", "Kofi",
         "Nina", "Hugo", "Sara", "Ivan", "Maya", "Leon", "Aiko", "Pablo", "Emma", "Jonas", "Lucia", "Arjun"]
LAST = ["Lopez", "Nguyen", "Okafor", "Schmidt", "Rossi", "Kim", "Silva", "Patel", "Moreau", "Haddad",
        "Novak", "Ito", "Garcia", "Berg", "Khan", "Walsh", "Dubois", "Costa", "Meyer", "Sato"]
STREETS = ["Maple Avenue", "Cedar Lane", "Hill Street", "Park Road", "River Drive", "Lake View",
           "Elm Street", "Sunset Boulevard", "Oak Court", "Harbor Way"]
CITIES = [("Austin", "TX"), ("Denver", "CO"), ("Portland", "OR"), ("Boston", "MA"), ("Chicago", "IL"),
          ("Seattle", "WA"), ("Phoenix", "AZ"), ("Atlanta", "GA"), ("Columbus", "OH"), ("San Diego", "CA")]

USERS = 60
ORDERS = 170


def digits(n):
    return "".join(rng.choice("0123456789") for _ in range(n))


def unique(make, taken):
    while True:
        value = make()
        if value not in taken:
            taken.add(value)
            return value


TAKEN = set()


def address():
    city, state = rng.choice(CITIES)
    return {
        "address1": f"{rng.randint(10, 999)} {rng.choice(STREETS)}",
        "address2": rng.choice(["", f"Suite {rng.randint(100, 999)}", f"Apt {rng.randint(1, 40)}"]),
        "city": city,
        "country": "USA",
        "state": state,
        "zip": digits(5),
    }


def make_products():
    products = {}
    for name, (low, high), options in PRODUCTS:
        product_id = unique(lambda: digits(10), TAKEN)
        combos = set()
        variants = {}
        wanted = rng.randint(5, 9)
        while len(variants) < wanted:
            chosen = tuple((k, rng.choice(v)) for k, v in options.items())
            if chosen in combos:
                continue
            combos.add(chosen)
            item_id = unique(lambda: digits(10), TAKEN)
            variants[item_id] = {
                "item_id": item_id,
                "options": dict(chosen),
                "available": rng.random() < 0.8,
                "price": round(rng.uniform(low, high), 2),
            }
        products[product_id] = {"name": name, "product_id": product_id, "variants": variants}
    return products


def make_users():
    users = {}
    for _ in range(USERS):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        user_id = unique(lambda: f"{first.lower()}_{last.lower()}_{digits(4)}", TAKEN)
        methods = {}
        for source in rng.sample(["credit_card", "paypal", "gift_card"], rng.randint(1, 3)):
            method_id = unique(lambda: f"{source}_{digits(7)}", TAKEN)
            method = {"source": source, "id": method_id}
            if source == "credit_card":
                method.update(brand=rng.choice(["visa", "mastercard", "amex"]), last_four=digits(4))
            if source == "gift_card":
                method["balance"] = float(rng.randint(0, 300))
            methods[method_id] = method
        users[user_id] = {
            "user_id": user_id,
            "name": {"first_name": first, "last_name": last},
            "address": address(),
            "email": f"{first.lower()}.{last.lower()}{digits(4)}@example.com",
            "payment_methods": methods,
            "orders": [],
        }
    return users


def make_orders(users, products):
    orders = {}
    user_ids = list(users)
    variants = [(p, v) for p in products.values() for v in p["variants"].values()]
    for i in range(ORDERS):
        user = users[user_ids[i % len(user_ids)]] if i < len(user_ids) else users[rng.choice(user_ids)]
        order_id = unique(lambda: "#W" + digits(7), TAKEN)
        items = []
        for product, variant in rng.sample(variants, rng.randint(1, 4)):
            items.append({
                "name": product["name"],
                "product_id": product["product_id"],
                "item_id": variant["item_id"],
                "price": variant["price"],
                "options": dict(variant["options"]),
            })
        status = rng.choices(["pending", "processed", "delivered", "cancelled"], [4, 2, 4, 1])[0]
        method = rng.choice(list(user["payment_methods"]))
        amount = round(sum(item["price"] for item in items), 2)
        history = [{"transaction_type": "payment", "amount": amount, "payment_method_id": method}]
        order = {
            "order_id": order_id,
            "user_id": user["user_id"],
            "address": dict(user["address"]) if rng.random() < 0.8 else address(),
            "items": items,
            "fulfillments": [],
            "status": status,
            "payment_history": history,
        }
        if status in ("processed", "delivered"):
            order["fulfillments"] = [{"tracking_id": [digits(12)], "item_ids": [it["item_id"] for it in items]}]
        if status == "cancelled":
            order["cancel_reason"] = rng.choice(["no longer needed", "ordered by mistake"])
            history.append({"transaction_type": "refund", "amount": amount, "payment_method_id": method})
        orders[order_id] = order
        user["orders"].append(order_id)
    return orders


products = make_products()
users = make_users()
orders = make_orders(users, products)


def call(name, **kwargs):
    return {"name": name, "kwargs": kwargs}


def identify(user, by_email):
    """The lookup call that finds `user`, and the facts the customer gives for it."""
    name = user["name"]
    facts = {"name": f"{name['first_name']} {name['last_name']}"}
    if by_email:
        facts["email"] = user["email"]
        return call("find_user_id_by_email", email=user["email"]), facts
    facts["zip"] = user["address"]["zip"]
    return call("find_user_id_by_name_zip", first_name=name["first_name"], last_name=name["last_name"],
                zip=user["address"]["zip"]), facts


def orders_of(status, used):
    found = [o for o in orders.values() if o["status"] == status and o["order_id"] not in used]
    rng.shuffle(found)
    return found


def swap_for(item, require_available=True):
    """Another available variant of `item`'s product, or None."""
    product = products[item["product_id"]]
    choices = [v for v in product["variants"].values()
               if v["item_id"] != item["item_id"] and (v["available"] or not require_available)]
    return rng.choice(choices) if choices else None


def options_text(options):
    return ", ".join(f"{k} {v}" for k, v in options.items())


tasks = []
used = set()


def add(kind, user, instruction, facts, actions, outputs=()):
    lookup, who = identify(user, by_email=len(tasks) % 2 == 0)
    who.update(facts)
    tasks.append({
        "task_id": f"retail-{len(tasks):03d}",
        "kind": kind,
        "user_id": user["user_id"],
        "instruction": instruction,
        "facts": who,
        "actions": [lookup] + actions,
        "outputs": list(outputs),
    })


# Cancel a pending order.
for order in orders_of("pending", used)[:5]:
    used.add(order["order_id"])
    user = users[order["user_id"]]
    reason = rng.choice(["no longer needed", "ordered by mistake"])
    add("cancel", user, f"You want to cancel order {order['order_id']} because it was {reason}.",
        {"order_id": order["order_id"], "reason": reason},
        [call("get_order_details", order_id=order["order_id"]),
         call("cancel_pending_order", order_id=order["order_id"], reason=reason)])

# Ship a pending order to the user's default address (one that differs from it).
for order in [o for o in orders_of("pending", used) if o["address"] != users[o["user_id"]]["address"]][:3]:
    used.add(order["order_id"])
    user = users[order["user_id"]]
    a = user["address"]
    add("modify_address", user,
        f"You want order {order['order_id']} shipped to your default address, {a['address1']} in {a['city']}.",
        {"order_id": order["order_id"]},
        [call("get_user_details", user_id=user["user_id"]),
         call("modify_pending_order_address", order_id=order["order_id"], **a)])

# Ship a pending order to a new address.
for order in orders_of("pending", used)[:2]:
    used.add(order["order_id"])
    user = users[order["user_id"]]
    new = address()
    add("modify_address", user,
        f"You moved: order {order['order_id']} must go to {new['address1']}, {new['address2'] or 'no second line'}, "
        f"{new['city']}, {new['state']} {new['zip']}, USA.",
        {"order_id": order["order_id"], "new_address": new},
        [call("modify_pending_order_address", order_id=order["order_id"], **new)])

# Swap one item of a pending order for another variant, paid with the original method.
count = 0
for order in orders_of("pending", used):
    item = order["items"][0]
    new = swap_for(item)
    method = order["payment_history"][0]["payment_method_id"]
    user = users[order["user_id"]]
    if new is None or user["payment_methods"][method]["source"] == "gift_card":
        continue
    used.add(order["order_id"])
    add("modify_items", user,
        f"In order {order['order_id']} you want the {item['name']} changed to the one with "
        f"{options_text(new['options'])}. Pay any difference with the payment method of the order.",
        {"order_id": order["order_id"], "item": item["name"], "wanted_options": new["options"]},
        [call("get_product_details", product_id=item["product_id"]),
         call("modify_pending_order_items", order_id=order["order_id"], item_ids=[item["item_id"]],
              new_item_ids=[new["item_id"]], payment_method_id=method)])
    count += 1
    if count == 4:
        break

# Pay a pending order with another method (a gift card only when its balance covers it).
count = 0
for order in orders_of("pending", used):
    user = users[order["user_id"]]
    paid = order["payment_history"][0]
    others = [m for m in user["payment_methods"].values() if m["id"] != paid["payment_method_id"]
              and (m["source"] != "gift_card" or m["balance"] >= paid["amount"])]
    if not others:
        continue
    method = rng.choice(others)
    used.add(order["order_id"])
    add("modify_payment", user,
        f"You want to pay order {order['order_id']} with your {method['source'].replace('_', ' ')} instead.",
        {"order_id": order["order_id"], "payment_method": method["id"]},
        [call("modify_pending_order_payment", order_id=order["order_id"], payment_method_id=method["id"])])
    count += 1
    if count == 3:
        break

# Change the default address of the account.
for user in rng.sample(list(users.values()), 3):
    new = address()
    add("modify_user_address", user,
        f"You want the default address of your account changed to {new['address1']}, "
        f"{new['address2'] or 'no second line'}, {new['city']}, {new['state']} {new['zip']}, USA.",
        {"new_address": new},
        [call("modify_user_address", user_id=user["user_id"], **new)])

# Return delivered items, refunded to the original method.
for order in orders_of("delivered", used)[:5]:
    used.add(order["order_id"])
    user = users[order["user_id"]]
    items = order["items"][: max(1, len(order["items"]) // 2)]
    method = order["payment_history"][0]["payment_method_id"]
    names = " and ".join(i["name"] for i in items)
    add("return", user, f"You want to return the {names} from order {order['order_id']}, refunded the way you paid.",
        {"order_id": order["order_id"], "items": [i["name"] for i in items]},
        [call("get_order_details", order_id=order["order_id"]),
         call("return_delivered_order_items", order_id=order["order_id"],
              item_ids=[i["item_id"] for i in items], payment_method_id=method)])

# Exchange a delivered item for another variant.
count = 0
for order in orders_of("delivered", used):
    item = order["items"][-1]
    new = swap_for(item)
    user = users[order["user_id"]]
    method = order["payment_history"][0]["payment_method_id"]
    if new is None or user["payment_methods"][method]["source"] == "gift_card":
        continue
    used.add(order["order_id"])
    add("exchange", user,
        f"You received order {order['order_id']} and want to exchange the {item['name']} for the one with "
        f"{options_text(new['options'])}, settling any difference with the order's payment method.",
        {"order_id": order["order_id"], "item": item["name"], "wanted_options": new["options"]},
        [call("get_order_details", order_id=order["order_id"]),
         call("exchange_delivered_order_items", order_id=order["order_id"], item_ids=[item["item_id"]],
              new_item_ids=[new["item_id"]], payment_method_id=method)])
    count += 1
    if count == 4:
        break

# Questions answered from the records: what an order cost, how many variants are in stock.
for order in orders_of("processed", used)[:3]:
    used.add(order["order_id"])
    user = users[order["user_id"]]
    total = order["payment_history"][0]["amount"]
    add("order_total", user, f"You want to know how much you paid for order {order['order_id']}. Change nothing.",
        {"order_id": order["order_id"]},
        [call("get_order_details", order_id=order["order_id"])], outputs=[f"{total:.2f}"])
for product in rng.sample(list(products.values()), 3):
    user = rng.choice(list(users.values()))
    available = sum(1 for v in product["variants"].values() if v["available"])
    add("stock", user, f"You want to know how many kinds of {product['name']} are available right now. Buy nothing.",
        {"product": product["name"]},
        [call("list_all_product_types"), call("get_product_details", product_id=product["product_id"])],
        outputs=[str(available)])

# Two requests in one conversation: cancel one pending order and return items of a delivered one.
count = 0
for user in users.values():
    pending = [orders[o] for o in user["orders"] if orders[o]["status"] == "pending" and o not in used]
    delivered = [orders[o] for o in user["orders"] if orders[o]["status"] == "delivered" and o not in used]
    if not pending or not delivered:
        continue
    p, d = pending[0], delivered[0]
    used.update([p["order_id"], d["order_id"]])
    item = d["items"][0]
    add("cancel_and_return", user,
        f"You want to cancel order {p['order_id']} (no longer needed) and return the {item['name']} from order "
        f"{d['order_id']}, refunded the way you paid.",
        {"cancel_order_id": p["order_id"], "return_order_id": d["order_id"], "item": item["name"]},
        [call("cancel_pending_order", order_id=p["order_id"], reason="no longer needed"),
         call("return_delivered_order_items", order_id=d["order_id"], item_ids=[item["item_id"]],
              payment_method_id=d["payment_history"][0]["payment_method_id"])])
    count += 1
    if count == 3:
        break

# A cancelled order cannot be cancelled again: the right outcome changes nothing and says so.
for order in orders_of("cancelled", used)[:2]:
    used.add(order["order_id"])
    user = users[order["user_id"]]
    add("refuse", user, f"You want to cancel order {order['order_id']}. If that is impossible, accept it and end.",
        {"order_id": order["order_id"]},
        [call("get_order_details", order_id=order["order_id"])], outputs=["cancelled"])

assert len(tasks) >= 30, len(tasks)

POLICY = """# Retail customer-service policy

You are the customer-service assistant of an online shop. You help one customer per
conversation with their account, their orders and the shop's products.

## Before anything else
- Find the customer's user id first: by email (`find_user_id_by_email`), or by first name, last
  name and zip code (`find_user_id_by_name_zip`). Do this even when they give a user id.
- Help only that customer, only with their own orders.

## Acting on the records
- Before a change (cancel, modify, return, exchange, address or payment change), state what will
  change and get the customer's explicit yes.
- Make one tool call at a time and do not answer the customer in the same turn as a tool call.
- Do not invent information or procedures; tell only what the tools return or this policy says.
- Transfer to a human agent (`transfer_to_human_agents`) only when the request is outside this
  policy and the tools.

## Orders
- An order is `pending`, `processed`, `delivered` or `cancelled` (or a state a change put it in).
- A pending order can be cancelled (reason "no longer needed" or "ordered by mistake"), or have
  its address, its payment method, or the variants of its items changed. Items can be changed
  only once, to another available variant of the same product; gather every item to change
  before calling the tool.
- Refunds of a cancellation go to the original payment methods; to a gift card at once.
- A delivered order can have items returned (refund to the original method or a gift card of
  the customer) or exchanged for available variants of the same product (the difference paid
  or refunded with a method of the customer). Gather every item first: one return or exchange
  per order.
- Processed orders cannot be changed. Cancelled orders cannot be changed.

## Payment
- A gift card pays only up to its balance.
"""

# One row per record, task and the policy, each `{"table": ..., "value": ...}`: the layout of a
# tau domain file (see the plugin's domain.rs), the one `geode tau-import` writes too.
with open(os.path.join(HERE, "retail.jsonl"), "w") as f:
    rows = [("policy", POLICY)]
    rows += [("products", p) for p in products.values()]
    rows += [("users", u) for u in users.values()]
    rows += [("orders", o) for o in orders.values()]
    rows += [("tasks", t) for t in tasks]
    for table, value in rows:
        f.write(json.dumps({"table": table, "value": value}, sort_keys=True) + "\n")
print(f"{len(products)} products ({sum(len(p['variants']) for p in products.values())} variants), "
      f"{len(users)} users, {len(orders)} orders, {len(tasks)} tasks")
