//! Snapshot framing for wrappers: the wrapper's own state (JSON) followed by the inner env's.

use crate::env::Env;
use crate::{Error, Result};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `[own length: u32 LE][own state as JSON][inner state]`.
fn join<S: Serialize>(own: &S, inner: Vec<u8>) -> Result<Vec<u8>> {
    let own = serde_json::to_vec(own)
        .map_err(|e| Error::Internal(format!("encode wrapper state: {e}")))?;
    let len =
        u32::try_from(own.len()).map_err(|_| Error::Internal("wrapper state too large".into()))?;
    let mut out = Vec::with_capacity(4 + own.len() + inner.len());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&own);
    out.extend_from_slice(&inner);
    Ok(out)
}

/// Splits a snapshot made by [`join`] into the wrapper's state and the inner env's bytes.
fn split<'a, S: DeserializeOwned>(id: &str, bytes: &'a [u8]) -> Result<(S, &'a [u8])> {
    let bad = |why: String| {
        Error::InvalidArgument(format!(
            "env `{id}`: not a snapshot of this wrapper stack ({why})"
        ))
    };
    let (len, rest) = bytes
        .split_at_checked(4)
        .ok_or_else(|| bad("too short".into()))?;
    let len = u32::from_le_bytes(len.try_into().expect("4 bytes")) as usize;
    let (own, inner) = rest
        .split_at_checked(len)
        .ok_or_else(|| bad("truncated".into()))?;
    let own = serde_json::from_slice(own).map_err(|e| bad(e.to_string()))?;
    Ok((own, inner))
}

/// `get_state` of a wrapper whose own state is `own`, over `inner`.
pub fn get<S: Serialize>(own: &S, inner: &mut dyn Env) -> Result<Vec<u8>> {
    join(own, inner.get_state()?)
}

/// `set_state` of a wrapper: restores `inner` first, then `own` (left unchanged on an error).
pub fn set<S: DeserializeOwned>(own: &mut S, inner: &mut dyn Env, bytes: &[u8]) -> Result<()> {
    let (restored, inner_bytes) = split(inner.id(), bytes)?;
    inner.set_state(inner_bytes)?;
    *own = restored;
    Ok(())
}
