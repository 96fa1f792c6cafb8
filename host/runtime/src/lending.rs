//! [`EnvLender`]: envs of one id and configuration lent to long-lived holders (a server's
//! sessions), sharing component instances the way a vector env's slots do. Up to
//! `per_instance` envs live in one instance; each is called alone, under its own limits, and a
//! fault is recovered so that only the env that caused it sees an error (see
//! [`ComponentUnit`]). An env given back (dropped) frees its place for the next holder, who
//! finds it as a new env would be: no episode, a fresh seed stream, and no call that could
//! read what the last holder left in the guest until it resets. An instance whose envs are all
//! given back is dropped, unless it is the last one with room.
//!
//! Envs that cannot share an instance (native envs, plugins without the `batch` export) are
//! made one per holder, as [`Registry::make`] makes them.

use crate::Result;
use crate::env::Env;
use crate::options::MakeOptions;
use crate::plugin::{Plugin, PluginKind};
use crate::registry::Registry;
use crate::unit::{ComponentUnit, SharedMember};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Lends envs of one id and configuration; see the module documentation.
pub struct EnvLender {
    shared: Arc<Shelf>,
}

/// What the lender and every lent env share.
struct Shelf {
    registry: Arc<Registry>,
    id: String,
    options: MakeOptions,
    /// The plugin and the merged configuration, when the env can share an instance.
    sharing: Option<(Arc<Plugin>, String)>,
    per_instance: usize,
    spread: usize,
    lots: Mutex<Vec<Lot>>,
    next_key: AtomicU64,
}

/// One shared instance and its members not lent now.
struct Lot {
    key: u64,
    unit: Arc<Mutex<ComponentUnit>>,
    free: Vec<usize>,
}

impl EnvLender {
    /// A lender of `id` made with `options`, `per_instance` envs to an instance (1: an instance
    /// per env). Until `spread` instances are open, a new env gets an instance of its own
    /// rather than joining one in use, so that up to `spread` holders' calls run in parallel
    /// (calls of envs in one instance take turns).
    pub fn new(
        registry: Arc<Registry>,
        id: &str,
        options: MakeOptions,
        per_instance: usize,
        spread: usize,
    ) -> Result<Self> {
        for dir in &options.data_dirs {
            registry.runtime().datasets().add_root(dir)?;
        }
        let can_share = per_instance > 1
            && registry
                .lookup(id)?
                .provider
                .plugin()
                .is_some_and(|plugin| ComponentUnit::can_batch(plugin));
        let sharing = if can_share {
            Some(registry.resolve(id, PluginKind::Env, &options.overrides)?)
        } else {
            // Checks the id and the configuration now, not at the first holder.
            registry.lookup(id)?.expect_kind(PluginKind::Env)?;
            None
        };
        Ok(EnvLender {
            shared: Arc::new(Shelf {
                registry,
                id: id.to_owned(),
                options,
                sharing,
                per_instance: per_instance.max(1),
                spread: spread.max(1),
                lots: Mutex::new(Vec::new()),
                next_key: AtomicU64::new(0),
            }),
        })
    }

    /// The env id lent.
    pub fn id(&self) -> &str {
        &self.shared.id
    }

    /// Whether lent envs share instances (false: each has its own).
    pub fn shares_instances(&self) -> bool {
        self.shared.sharing.is_some()
    }

    /// Shared instances open now.
    pub fn instances(&self) -> usize {
        self.shared.lots().len()
    }

    /// An env for a new holder, wrapped in the options' wrappers; dropping it gives it back.
    pub fn lend(&self) -> Result<Box<dyn Env>> {
        let shelf = &self.shared;
        let Some((plugin, config)) = &shelf.sharing else {
            return shelf.registry.make(&shelf.id, shelf.options.clone());
        };
        let lent = match shelf.take_free() {
            Some(lent) => lent,
            None => {
                let members = vec![(shelf.id.clone(), config.clone()); shelf.per_instance];
                let unit = ComponentUnit::new(plugin.clone(), members, shelf.limits())?;
                shelf.open_lot(unit)
            }
        };
        let back = shelf.clone();
        let key = lent.key;
        let give_back = Box::new(move |member| back.give_back(key, member));
        let mut env: Box<dyn Env> = Box::new(SharedMember::lent(lent.unit, lent.member, give_back));
        for spec in &shelf.options.wrappers {
            env = shelf.registry.wrap(env, spec, &shelf.options.limits)?;
        }
        Ok(env)
    }
}

impl std::fmt::Debug for EnvLender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnvLender")
            .field("id", &self.shared.id)
            .field("per_instance", &self.shared.per_instance)
            .field("instances", &self.instances())
            .finish()
    }
}

/// A member taken from a lot, before it is tied to its shelf.
struct Taken {
    key: u64,
    unit: Arc<Mutex<ComponentUnit>>,
    member: usize,
}

impl Shelf {
    fn lots(&self) -> MutexGuard<'_, Vec<Lot>> {
        self.lots.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn limits(&self) -> crate::Limits {
        self.options.limits.clone()
    }

    /// A free member of the fullest lot with room, or `None` when a new lot should be opened:
    /// none has room, or fewer than `spread` are open and every one is in use.
    fn take_free(&self) -> Option<Taken> {
        let mut lots = self.lots();
        let all_in_use = lots.iter().all(|lot| lot.free.len() < self.per_instance);
        if lots.len() < self.spread && all_in_use {
            return None;
        }
        let lot = lots
            .iter_mut()
            .filter(|lot| !lot.free.is_empty())
            .min_by_key(|lot| lot.free.len())?;
        let member = lot.free.pop()?;
        Some(Taken {
            key: lot.key,
            unit: lot.unit.clone(),
            member,
        })
    }

    /// Opens a lot for `unit` and takes its first member.
    fn open_lot(&self, unit: ComponentUnit) -> Taken {
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        let unit = Arc::new(Mutex::new(unit));
        // Members are taken from the end: member 0 first.
        let free: Vec<usize> = (1..self.per_instance).rev().collect();
        self.lots().push(Lot {
            key,
            unit: unit.clone(),
            free,
        });
        Taken {
            key,
            unit,
            member: 0,
        }
    }

    /// Takes `member` of lot `key` back; drops the lot when it is empty and another has room.
    fn give_back(&self, key: u64, member: usize) {
        let mut lots = self.lots();
        let Some(at) = lots.iter().position(|lot| lot.key == key) else {
            return;
        };
        lots[at].free.push(member);
        let empty = lots[at].free.len() == self.per_instance;
        let room_elsewhere = lots
            .iter()
            .enumerate()
            .any(|(i, lot)| i != at && !lot.free.is_empty());
        if empty && room_elsewhere {
            lots.swap_remove(at);
        }
    }
}
