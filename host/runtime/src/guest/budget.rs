//! Arming a guest store for its next call: fuel, the wall-clock deadline, and the memory a
//! batch call may grow by (see [`Limits`]), and the epoch callback that enforces the deadline.

use crate::host_state::GuestState;
use crate::limits::{Limits, coarse};
use std::time::Duration;
use wasmtime::AsContextMut;

/// How many times a call for several members of a unit is shorter, in fuel and in wall time,
/// than one member's own budget (see [`Limits::arm_batch`]).
pub(crate) const SHARED_CALL_DIVISOR: u32 = 8;

impl Limits {
    /// Gives `store` a full fuel budget and a fresh wall-clock deadline for its next call.
    pub(crate) fn arm(&self, store: &mut wasmtime::Store<GuestState>) {
        store.data_mut().limiter.end_turn();
        arm_budget(
            store.as_context_mut(),
            self.fuel_per_call,
            self.deadline_per_call,
        );
    }

    /// Arms `store` for a batch call on `members` members of a unit. A call for one member gets
    /// that member's own fuel, deadline and memory growth. A call for several gets one member's
    /// memory growth and an eighth of one member's fuel and time: if it completes, every member
    /// stayed within its own limits (none used more than all of them together). A call that
    /// does not complete is run again member by member, each under its own limits, so a member
    /// that loops delays the others by an eighth of a deadline more than it would alone.
    pub(crate) fn arm_batch(&self, store: &mut wasmtime::Store<GuestState>, members: usize) {
        store.data_mut().limiter.begin_turn(self.max_memory_bytes);
        let (fuel, deadline) = match members {
            1 => (self.fuel_per_call, self.deadline_per_call),
            _ => (
                self.fuel_per_call
                    .map(|f| f / u64::from(SHARED_CALL_DIVISOR)),
                self.deadline_per_call.map(|d| d / SHARED_CALL_DIVISOR),
            ),
        };
        arm_budget(store.as_context_mut(), fuel, deadline);
    }
}

/// Arms `store` with `fuel` and a deadline `deadline` from now. The epoch deadline is only a
/// wake-up: the store's epoch callback (see [`on_epoch`]) checks the clock, so a ticker that ran
/// late and caught up never ends a call early.
pub(crate) fn arm_budget(
    mut store: wasmtime::StoreContextMut<'_, GuestState>,
    fuel: Option<u64>,
    deadline: Option<Duration>,
) {
    store
        .set_fuel(fuel.unwrap_or(u64::MAX))
        .expect("fuel is enabled on the engine");
    match deadline {
        Some(deadline) => {
            store.data_mut().deadline = Some(coarse::now() + deadline);
            store.set_epoch_deadline(crate::engine::deadline_ticks(deadline));
        }
        None => {
            store.data_mut().deadline = None;
            store.set_epoch_deadline(u64::MAX / 2);
        }
    }
}

/// The epoch callback of every guest store: interrupts the call once its deadline has surely
/// passed, or sleeps until it will have.
pub(crate) fn on_epoch(
    store: wasmtime::StoreContextMut<'_, GuestState>,
) -> wasmtime::Result<wasmtime::UpdateDeadline> {
    let Some(until) = store.data().deadline else {
        return Ok(wasmtime::UpdateDeadline::Continue(u64::MAX / 2));
    };
    let now = coarse::now();
    let due = until + coarse::resolution();
    if now >= due {
        return Ok(wasmtime::UpdateDeadline::Interrupt);
    }
    Ok(wasmtime::UpdateDeadline::Continue(
        crate::engine::deadline_ticks(due - now),
    ))
}
