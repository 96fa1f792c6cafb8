//! Running one batch of slot calls on several threads. Called from inside a rayon pool, the
//! batch runs on that pool (the caller chose its threads). Called from any other thread, it
//! runs on a [`Gang`]: the calling thread works too instead of sleeping until the pool is done.
//! Either way the batch is shared out by [`Shared`], so each slot tends to stay on one thread.
//! Work to do with each result (filing it, converting it for Python) belongs in the mapped
//! function: it then runs on the thread that made the result, beside the others' stepping.

use super::gang::Gang;
use super::share::Shared;
use std::sync::OnceLock;

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
    let pairs: Vec<(&mut S, &A)> = items.iter_mut().zip(args).collect();
    let f = |(item, arg): (&mut S, &A)| f(item, arg);
    if let Some(me) = rayon::current_thread_index() {
        let threads = rayon::current_num_threads();
        let shared = Shared::new(pairs, threads);
        // Participants are pool threads, numbered by their index in the pool: a job another
        // thread picks up works on that thread's home range first.
        rayon::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(|_| shared.work(rayon::current_thread_index().unwrap_or(me), &f));
            }
            shared.work(me, &f);
        });
        return shared.into_results();
    }
    match gang() {
        Some(gang) => {
            let shared = Shared::new(pairs, gang.helpers() + 1);
            if !gang.run(&|me| shared.work(me, &f)) {
                shared.work(0, &f); // another batch holds the gang: run on this thread alone
            }
            shared.into_results()
        }
        None => pairs.into_iter().map(f).collect(),
    }
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

    #[test]
    fn a_panic_in_a_batch_reaches_the_caller_and_the_next_batch_runs() {
        let hit = std::panic::catch_unwind(|| map((0..64).collect(), |i| 100 / (40 - i)));
        assert!(hit.is_err());
        assert_eq!(map((0..64).collect(), |i| i + 1)[63], 64);
    }
}
