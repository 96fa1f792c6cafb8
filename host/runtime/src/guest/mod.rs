//! Guest instances: the one lifecycle every component-backed env unit, tool, wrapper and
//! multi-agent env goes through ([`GuestInstance`]), what it is built from ([`Recipe`]), how
//! each call is armed ([`budget`]) and how what a call returned becomes a typed error
//! ([`verdict`]).

pub(crate) mod budget;
mod instance;
mod recipe;
pub(crate) mod verdict;
mod worlds;

pub(crate) use instance::{Budget, GuestCall, GuestInstance, Live, World};
pub(crate) use recipe::Recipe;
