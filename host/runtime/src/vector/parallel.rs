//! Running one batch of slot calls on several threads. Called from inside a rayon pool, the
//! batch runs on that pool (the caller chose its threads). Called from any other thread, it
//! runs on a [`Gang`]: the calling thread works too instead of sleeping until the pool is done.

use super::gang::Gang;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

/// Chunks per thread. Neighbouring slots share cache lines (and the allocations behind them sit
/// side by side), so contiguous runs per thread step faster than interleaved ones; two chunks
/// each still let a thread that joins late, or finishes early, take over a share.
const CHUNKS_PER_THREAD: usize = 2;

/// The process's gang: one helper per core besides the calling thread's (`None` on one core).
fn gang() -> Option<&'static Gang> {
    static GANG: OnceLock<Option<Gang>> = OnceLock::new();
    GANG.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        (cores > 1).then(|| Gang::new(cores - 1).ok()).flatten()
    })
    .as_ref()
}

/// `f(item, arg)` for every item and its argument (same lengths), in parallel, results in item
/// order.
pub fn map_zip<S: Send, A: Sync, R: Send>(
    items: &mut [S],
    args: &[A],
    f: impl Fn(&mut S, &A) -> R + Sync + Send,
) -> Vec<R> {
    debug_assert_eq!(items.len(), args.len());
    if rayon::current_thread_index().is_some() {
        return items
            .par_iter_mut()
            .zip(args.par_iter())
            .map(|(item, arg)| f(item, arg))
            .collect();
    }
    match gang() {
        Some(gang) => share(gang, items.iter_mut().zip(args).collect(), &|(
            item,
            arg,
        )| {
            f(item, arg)
        }),
        None => items.iter_mut().zip(args).map(|(i, a)| f(i, a)).collect(),
    }
}

/// One chunk of the batch: items still to do, or their results.
enum Chunk<T, R> {
    Todo(Vec<T>),
    Done(Vec<R>),
}

/// Every participant first steps its own chunks (the same slots batch after batch, so their
/// memory stays in that core's cache), then takes over whatever other participants have not
/// started yet.
fn share<T: Send, R: Send>(gang: &Gang, items: Vec<T>, f: &(dyn Fn(T) -> R + Sync)) -> Vec<R> {
    let threads = gang.helpers() + 1;
    let size = items.len().div_ceil(threads * CHUNKS_PER_THREAD).max(1);
    let mut rest = items.into_iter();
    let mut chunks: Vec<Mutex<Chunk<T, R>>> = Vec::new();
    loop {
        let chunk: Vec<T> = rest.by_ref().take(size).collect();
        if chunk.is_empty() {
            break;
        }
        chunks.push(Mutex::new(Chunk::Todo(chunk)));
    }
    // Participant p owns chunks p * CHUNKS_PER_THREAD .. (p + 1) * CHUNKS_PER_THREAD; claimed[p]
    // counts how many of them were taken, by their owner or by anyone else.
    let claimed: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
    let work = |me: usize| {
        for owner in (0..threads).map(|k| (me + k) % threads) {
            loop {
                let taken = claimed[owner].fetch_add(1, Ordering::Relaxed);
                if taken >= CHUNKS_PER_THREAD {
                    break;
                }
                let Some(cell) = chunks.get(owner * CHUNKS_PER_THREAD + taken) else {
                    break;
                };
                let mut cell = cell.lock().unwrap_or_else(PoisonError::into_inner);
                if let Chunk::Todo(todo) = std::mem::replace(&mut *cell, Chunk::Done(Vec::new())) {
                    *cell = Chunk::Done(todo.into_iter().map(f).collect());
                }
            }
        }
    };
    if !gang.run(&work) {
        work(0); // another batch holds the gang: this one runs on the calling thread alone
    }
    chunks
        .into_iter()
        .flat_map(
            |cell| match cell.into_inner().unwrap_or_else(PoisonError::into_inner) {
                Chunk::Done(results) => results,
                Chunk::Todo(_) => unreachable!("every chunk is claimed before the batch ends"),
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(mut items: Vec<usize>, f: impl Fn(usize) -> usize + Sync + Send) -> Vec<usize> {
        let args = vec![(); items.len()];
        map_zip(&mut items, &args, |item, _| f(*item))
    }

    #[test]
    fn results_keep_item_order_from_any_thread() {
        let items: Vec<usize> = (0..1000).collect();
        let doubled = map(items.clone(), |i| i * 2);
        assert_eq!(doubled, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let inside = pool.install(|| map(items.clone(), |i| i + 1));
        assert_eq!(inside[999], 1000);
        assert!(map(Vec::new(), |b| b).is_empty());
    }

    #[test]
    fn concurrent_callers_all_finish() {
        std::thread::scope(|scope| {
            for t in 0..4 {
                scope.spawn(move || {
                    for _ in 0..100 {
                        let out = map((0..64).collect(), |i| i + t);
                        assert_eq!(out[63], 63 + t);
                    }
                });
            }
        });
    }
}
