//! Running one batch of slot calls on several threads. Called from inside a rayon pool, the
//! batch runs on that pool (the caller chose its threads). Called from any other thread, it
//! runs on a [`Gang`]: the calling thread works too instead of sleeping until the pool is done.
//! Either way the batch is shared out by [`Shared`], so each slot tends to stay on one thread.

use super::gang::Gang;
use super::share::{Balance, Shared};
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

/// Results handed over by [`map_zip_streamed`]: `(item index, result)`.
pub type Finished<R> = Vec<(usize, R)>;

/// [`map_zip`] that hands the results to `take` on the calling thread as they finish, as
/// `(item index, result)` in any order, instead of returning them. Between its own items the
/// caller takes what the others finished once at least `chunk` results wait; the rest come at
/// the end. So the caller's handling of results (converting them to Python objects, say)
/// overlaps the other threads' work, and any of its items they take over meanwhile. `balance`
/// carries the participants' shares from one batch of these items to the next.
pub fn map_zip_streamed<S: Send, A: Sync, R: Send>(
    items: &mut [S],
    args: &[A],
    f: impl Fn(&mut S, &A) -> R + Sync + Send,
    chunk: usize,
    balance: &mut Balance,
    take: &mut dyn FnMut(&mut Finished<R>),
) {
    debug_assert_eq!(items.len(), args.len());
    let mut ready = Vec::with_capacity(items.len());
    if rayon::current_thread_index().is_some() {
        let results = map_zip(items, args, f);
        ready.extend(results.into_iter().enumerate());
        take(&mut ready);
        return;
    }
    let pairs: Vec<(&mut S, &A)> = items.iter_mut().zip(args).collect();
    let f = |(item, arg): (&mut S, &A)| f(item, arg);
    let participants = gang().map_or(1, |gang| gang.helpers() + 1);
    let shared = Shared::weighted(pairs, &balance.weights(participants));
    let chunk = chunk.max(1);
    // Hands the waiting results to `take` if there are at least `min`.
    let mut hand_over = |min: usize| {
        let enough = shared.waiting() >= min;
        if enough {
            shared.take_finished(&mut ready);
            take(&mut ready);
            ready.clear();
        }
        enough
    };
    let mine = &mut || {
        shared.work_between(0, &f, &mut || {
            hand_over(chunk);
        });
        // Nothing left to claim: take results as the others finish their last items.
        while !shared.all_taken() {
            if !hand_over(1) {
                std::hint::spin_loop();
            }
        }
    };
    if !gang().is_some_and(|gang| gang.run_with(&|me| shared.work(me, &f), mine)) {
        mine(); // one core, or another batch holds the gang: run on this thread alone
    }
    balance.record(&shared.processed());
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

    fn streamed(items: usize, chunk: usize, balance: &mut Balance) -> Vec<(usize, usize)> {
        let mut items: Vec<usize> = (0..items).collect();
        let args = vec![3; items.len()];
        let mut got = Vec::new();
        let mut takes = 0;
        map_zip_streamed(
            &mut items,
            &args,
            |i, a| *i * a,
            chunk,
            balance,
            &mut |ready| {
                takes += 1;
                got.append(ready);
            },
        );
        assert!(takes <= got.len().max(1));
        got.sort_unstable();
        got
    }

    #[test]
    fn streamed_results_arrive_once_each_from_any_thread() {
        let mut balance = Balance::default();
        for n in [0, 1, 7, 64, 300] {
            for chunk in [0, 1, 8] {
                let expected: Vec<(usize, usize)> = (0..n).map(|i| (i, i * 3)).collect();
                assert_eq!(streamed(n, chunk, &mut balance), expected);
            }
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let inside = pool.install(|| streamed(100, 4, &mut Balance::default()));
        assert_eq!(inside.len(), 100);
        std::thread::scope(|scope| {
            for _ in 0..3 {
                scope.spawn(|| {
                    let mut balance = Balance::default();
                    for _ in 0..50 {
                        assert_eq!(streamed(64, 8, &mut balance).len(), 64);
                    }
                });
            }
        });
    }

    #[test]
    fn a_panic_in_a_streamed_batch_reaches_the_caller() {
        let mut items: Vec<usize> = (0..64).collect();
        let args = vec![(); 64];
        let hit = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            map_zip_streamed(
                &mut items,
                &args,
                |i, _| assert_ne!(*i, 40, "boom"),
                1,
                &mut Balance::default(),
                &mut |_| {},
            )
        }));
        assert!(hit.is_err());
        assert_eq!(streamed(10, 1, &mut Balance::default()).len(), 10);
    }
}
