//! The native core's heap: small blocks kept on free lists by size class, larger ones from the
//! system allocator, with a count of the bytes held live (`_native.heap()`), so that the memory
//! benchmark can add what a native position keeps outside Python's allocator (which tracemalloc
//! sees) to what it keeps inside.
//!
//! The rules core allocates and frees many small vectors (melds, plans, ids) for every action;
//! the system allocator spent about a third of a suited action's instructions on them. A freed
//! small block goes on its class's list and serves the next request of that class, as Python's
//! own small-object allocator does. A class's list keeps at most `KEEP` bytes of blocks; the
//! blocks freed beyond that go back to the system allocator, so that a burst of small blocks (a
//! large hand's planner memo emptied) is given back rather than kept for good: the lists hold
//! at most 64 x 32 KB.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

pub struct Counting {
    lock: AtomicBool,
    /// per size class, the first free block (each block holds the next)
    free: UnsafeCell<[*mut u8; CLASSES + 1]>,
    /// per size class, how many blocks are on its list
    count: UnsafeCell<[u32; CLASSES + 1]>,
}

// The free lists and their counts are only touched with `lock` held.
unsafe impl Sync for Counting {}

pub static LIVE: AtomicIsize = AtomicIsize::new(0);

const GRAIN: usize = 16;
const CLASSES: usize = 64;
/// Blocks of up to this many bytes (and alignment up to GRAIN) come from the free lists.
const SMALL: usize = GRAIN * CLASSES;
/// The bytes of free blocks a class's list keeps for reuse; those freed beyond go to the system.
const KEEP: usize = 32 << 10;

#[inline]
fn class_of(layout: &Layout) -> usize {
    if layout.size() <= SMALL && layout.align() <= GRAIN {
        (layout.size().max(1) + GRAIN - 1) / GRAIN
    } else {
        0
    }
}

impl Counting {
    #[inline]
    fn locked<T>(&self, f: impl FnOnce(&mut [*mut u8; CLASSES + 1]) -> T) -> T {
        if self.lock.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            self.wait();
        }
        let out = f(unsafe { &mut *self.free.get() });
        self.lock.store(false, Ordering::Release);
        out
    }

    /// Take the lock another thread holds. Threads allocate side by side where a simulation runs
    /// without the GIL: a thread that finds the lock held spins a little, then yields, so that a
    /// holder preempted on a busy machine gets back to release it (spinning on, the waiter burnt
    /// its time slice: two threads took 1.1-1.2x the CPU time of one for the same deals).
    #[cold]
    #[inline(never)]
    fn wait(&self) {
        let mut spins = 0u32;
        while self.lock.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    #[inline]
    unsafe fn take(&self, class: usize) -> *mut u8 {
        let got = self.locked(|free| {
            let head = free[class];
            if !head.is_null() {
                free[class] = unsafe { *(head as *mut *mut u8) };
                unsafe { (*self.count.get())[class] -= 1 };
            }
            head
        });
        if !got.is_null() {
            return got;
        }
        unsafe { System.alloc(Layout::from_size_align_unchecked(class * GRAIN, GRAIN)) }
    }

    #[inline]
    unsafe fn give(&self, ptr: *mut u8, class: usize) {
        let kept = self.locked(|free| {
            let count = unsafe { &mut (*self.count.get())[class] };
            if *count as usize * class * GRAIN >= KEEP {
                return false;
            }
            unsafe { *(ptr as *mut *mut u8) = free[class] };
            free[class] = ptr;
            *count += 1;
            true
        });
        if !kept {
            unsafe { System.dealloc(ptr, Layout::from_size_align_unchecked(class * GRAIN, GRAIN)) };
        }
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        match class_of(&layout) {
            0 => unsafe { System.alloc(layout) },
            class => unsafe { self.take(class) },
        }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        match class_of(&layout) {
            0 => unsafe { System.dealloc(ptr, layout) },
            class => unsafe { self.give(ptr, class) },
        }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        match class_of(&layout) {
            0 => {
                LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
                unsafe { System.alloc_zeroed(layout) }
            }
            _ => {
                let p = unsafe { self.alloc(layout) };
                if !p.is_null() {
                    unsafe { ptr::write_bytes(p, 0, layout.size()) };
                }
                p
            }
        }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let (old, new) = (class_of(&layout), class_of(&new_layout));
        if old == 0 && new == 0 {
            LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if old != 0 && old == new {
            LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
            return ptr; // the block already has room
        }
        let p = unsafe { self.alloc(new_layout) };
        if !p.is_null() {
            unsafe {
                ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting {
    lock: AtomicBool::new(false),
    free: UnsafeCell::new([ptr::null_mut(); CLASSES + 1]),
    count: UnsafeCell::new([0; CLASSES + 1]),
};

pub fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}
