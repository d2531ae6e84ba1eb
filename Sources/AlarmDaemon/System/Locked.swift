// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import Glibc

/// A glibc mutex: alarmd's lock, used only where two threads inherently share state (the store,
/// which the loop and the writer both use; what another thread hands the loop, in `Locked`).
///
/// Not `Synchronization.Mutex`: on Linux a contended Mutex is handed over through a PI futex inside
/// libswiftSynchronization, which is not built with ThreadSanitizer, so `make test-tsan` saw no order
/// between the two holders and reported what they guard as a data race (the store's WAL counts,
/// libpulse's events; docs/sanitizers.md has a 20-line program that gets the same report without any
/// race). ThreadSanitizer intercepts `pthread_mutex_lock`: it orders every hand-over, names the locks
/// held in its reports, and checks that locks are always taken in one order. Uncontended, glibc's
/// mutex costs what Mutex does, one atomic operation each way; alarmd needs no priority inheritance.
/// A lock guarding its owner's fields is a `Lock`, not a `Locked<Void>`: ThreadSanitizer checks an
/// access to an empty stored property at its object's first bytes, which every caller reads unlocked
/// (the class's metadata), and reported that as a race.
final class Lock: @unchecked Sendable {
    /// Heap-allocated: a pthread mutex must not move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held (not re-entrant: `body` must not take it again).
    func withLock<Result, E: Error>(_ body: () throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value that one thread hands another, reached only with its `Lock` held.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    /// Only touched with `lock` held.
    private var value: Value

    init(_ value: sending Value) { self.value = value }

    func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        try lock.withLock { () throws(E) -> sending Result in try body(&value) }
    }
}
