//! The guest's allocator: free lists of small blocks in front of the system allocator.
//!
//! A step allocates a handful of short-lived buffers (the action the host writes in, the
//! observation and info it reads back; for a batch call, its columns: a few KB). The wasm build
//! of the C library's dlmalloc was about a third of a simple game's guest time, and a block of a
//! few KB took it about 800 instructions to carve and merge back; popping and pushing a free
//! list per size class is a few instructions. Blocks of up to [`MAX_SMALL`] bytes come in eleven
//! power-of-two classes and, once freed, are kept for reuse by their class (never returned to
//! the system allocator, so memory held is bounded by the peak number of live blocks per
//! class). Larger or over-aligned blocks go straight to the system allocator.
//!
//! The SDK installs it as the global allocator of single-threaded wasm guests only: the free
//! lists have no locks.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;

/// Number of size classes: 16 bytes to 16 KB (a batch call's columns for up to 128 members).
const CLASSES: usize = 11;
/// The smallest class, also the alignment every small block gets.
const MIN_BLOCK: usize = 16;
/// The largest size served from the free lists.
pub const MAX_SMALL: usize = MIN_BLOCK << (CLASSES - 1);

/// Per-class free lists (each free block stores the address of the next one).
pub struct SizeClasses {
    heads: UnsafeCell<[*mut u8; CLASSES]>,
}

// SAFETY: installed only where there is one thread (see the module docs); tests use their own
// instance from one thread.
unsafe impl Sync for SizeClasses {}

impl Default for SizeClasses {
    fn default() -> Self {
        SizeClasses::new()
    }
}

impl SizeClasses {
    /// Empty free lists.
    pub const fn new() -> Self {
        SizeClasses {
            heads: UnsafeCell::new([std::ptr::null_mut(); CLASSES]),
        }
    }
}

/// The class serving `layout`, or `None` for the system allocator.
#[inline]
fn class_of(layout: Layout) -> Option<usize> {
    if layout.size() > MAX_SMALL || layout.align() > MIN_BLOCK {
        return None;
    }
    let size = layout.size().max(MIN_BLOCK);
    Some((usize::BITS - (size - 1).leading_zeros()) as usize - MIN_BLOCK.trailing_zeros() as usize)
}

/// The layout of every block of class `class`.
#[inline]
fn block_layout(class: usize) -> Layout {
    // SAFETY: a power of two times MIN_BLOCK, aligned to MIN_BLOCK (a power of two).
    unsafe { Layout::from_size_align_unchecked(MIN_BLOCK << class, MIN_BLOCK) }
}

unsafe impl GlobalAlloc for SizeClasses {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout) else {
            return unsafe { System.alloc(layout) };
        };
        // SAFETY: single-threaded (see above), and a free block's first word is the next link.
        unsafe {
            let heads = &mut *self.heads.get();
            let head = heads[class];
            if head.is_null() {
                return System.alloc(block_layout(class));
            }
            heads[class] = *(head as *mut *mut u8);
            head
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let Some(class) = class_of(layout) else {
            return unsafe { System.dealloc(ptr, layout) };
        };
        // SAFETY: `ptr` is a block of `class` (the caller's layout maps to the same class it was
        // allocated with), at least MIN_BLOCK bytes and aligned for a pointer.
        unsafe {
            let heads = &mut *self.heads.get();
            *(ptr as *mut *mut u8) = heads[class];
            heads[class] = ptr;
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY (all blocks below): the caller guarantees `new_size` is valid for the alignment.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class_of(layout), class_of(new_layout)) {
            (None, None) => unsafe { System.realloc(ptr, layout, new_size) },
            (Some(old), Some(new)) if old == new => ptr,
            _ => unsafe {
                let moved = self.alloc(new_layout);
                if !moved.is_null() {
                    std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                moved
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn sizes_map_to_power_of_two_classes() {
        let class = |size| class_of(layout(size, 1));
        assert_eq!(class(1), Some(0));
        assert_eq!(class(16), Some(0));
        assert_eq!(class(17), Some(1));
        assert_eq!(class(64), Some(2));
        assert_eq!(class(65), Some(3));
        assert_eq!(class(MAX_SMALL), Some(CLASSES - 1));
        assert_eq!(class(MAX_SMALL + 1), None);
        assert_eq!(
            class_of(layout(8, 32)),
            None,
            "over-aligned goes to the system"
        );
    }

    #[test]
    fn freed_blocks_are_reused_by_their_class() {
        let heap = SizeClasses::new();
        unsafe {
            let a = heap.alloc(layout(40, 8));
            let b = heap.alloc(layout(40, 8));
            assert_ne!(a, b);
            assert_eq!(a as usize % MIN_BLOCK, 0);
            heap.dealloc(a, layout(40, 8));
            assert_eq!(heap.alloc(layout(33, 1)), a, "same class, last freed first");
            let other = heap.alloc(layout(20, 1));
            assert_ne!(other, b);
            for (p, l) in [
                (a, layout(33, 1)),
                (b, layout(40, 8)),
                (other, layout(20, 1)),
            ] {
                heap.dealloc(p, l);
            }
        }
    }

    #[test]
    fn realloc_keeps_contents_across_classes_and_to_the_system() {
        let heap = SizeClasses::new();
        unsafe {
            let mut l = layout(10, 1);
            let p = heap.alloc(l);
            for i in 0..10 {
                *p.add(i) = i as u8;
            }
            let same = heap.realloc(p, l, 16);
            assert_eq!(same, p, "growing inside the class keeps the block");
            l = layout(16, 1);
            let bigger = heap.realloc(same, l, 300);
            l = layout(300, 1);
            let huge = heap.realloc(bigger, l, MAX_SMALL + 5000);
            l = layout(MAX_SMALL + 5000, 1);
            let back = heap.realloc(huge, l, 12);
            for i in 0..10 {
                assert_eq!(*back.add(i), i as u8);
            }
            heap.dealloc(back, layout(12, 1));
        }
    }

    #[test]
    fn large_and_over_aligned_blocks_use_the_system() {
        let heap = SizeClasses::new();
        unsafe {
            let big = heap.alloc(layout(MAX_SMALL + 1, 8));
            let aligned = heap.alloc(layout(64, 64));
            assert_eq!(aligned as usize % 64, 0);
            heap.dealloc(big, layout(MAX_SMALL + 1, 8));
            heap.dealloc(aligned, layout(64, 64));
        }
    }
}
