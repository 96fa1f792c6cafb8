//! [`Splitting`]: when a unit's calls of several members run member by member for a while.

/// Whether a unit's batch calls of one kind (steps or resets) run member by member for now.
/// A call of several members that fails while each member then passes alone needed more than
/// the shared budget (not a fault of anyone): the next calls of that kind run member by member,
/// for 8 calls after the first such miss, doubling with every further miss up to 4,096.
#[derive(Debug, Default)]
pub(super) struct Splitting {
    misses: u32,
    calls_left: u32,
}

impl Splitting {
    /// Whether calls run member by member for now (without counting a call).
    pub fn active(&self) -> bool {
        self.calls_left > 0
    }

    /// Whether the next call runs member by member (and counts it).
    pub fn next_call_alone(&mut self) -> bool {
        let alone = self.calls_left > 0;
        self.calls_left = self.calls_left.saturating_sub(1);
        alone
    }

    /// A call of several failed, and every member passed alone.
    pub fn missed(&mut self) {
        self.calls_left = 8 << self.misses.min(9);
        self.misses = self.misses.saturating_add(1);
    }
}
