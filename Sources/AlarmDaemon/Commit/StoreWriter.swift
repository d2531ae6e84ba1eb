// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Dispatch
import Glibc
import SDBus

/// Writes the committer's batches on a thread of its own, so that the event loop never waits for the
/// disk: while a batch is committed and fsynced there, the loop goes on serving timers (a due alarm
/// rings) and planning the calls that arrive into the next batch. One batch at a time (the committer
/// hands over the next once the last is reported); the outcome comes back to the loop thread through
/// a pipe the loop watches, and `onDone` hears it there.
final class StoreWriter {
    /// What the writer thread hands back; the loop takes it once the pipe says it is there.
    private final class Outbox: Sendable {
        enum Outcome: Sendable {
            case durable
            case failed(any Error)
        }
        let outcome = Locked<Outcome?>(nil)
    }

    private let store: Store
    private let queue = DispatchQueue(label: "org.alarmd.store-writer")
    private let outbox = Outbox()
    /// Made readable by the writer thread once a batch is durable or failed: [read end, write end].
    private let done: [Int32]
    private let onDone: ((any Error)?) -> Void
    /// Whether a batch is with the writer thread (loop thread only).
    private(set) var busy = false

    init(store: Store, loop: EventLoop, onDone: @escaping ((any Error)?) -> Void) throws {
        self.store = store
        self.onDone = onDone
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw BusError(errno: -errno, "pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        done = fds
        try loop.watchReadable(fds[0]) { [unowned self] in self.readable() }
    }

    deinit { done.forEach { close($0) } }

    /// Commits `batch` (one transaction, fsynced) on the writer thread, after `files` made the files
    /// it refers to durable; `onDone` hears nil once it is durable, or the error (then nothing of it
    /// was written).
    func write(_ batch: [Mutation], after files: [@Sendable () throws -> Void] = []) {
        precondition(!busy, "one batch at a time")
        busy = true
        let store = store, outbox = outbox, fd = done[1]
        queue.async {
            let outcome: Outbox.Outcome
            do {
                for makeDurable in files { try makeDurable() }
                try store.commit(batch)
                outcome = .durable
            } catch {
                outcome = .failed(error)
            }
            outbox.outcome.withLock { $0 = outcome }
            var one: UInt8 = 1
            _ = Glibc.write(fd, &one, 1)
        }
    }

    /// Runs `work` on the writer thread after the batch under way (tidying the WAL at idle).
    func after(_ work: @escaping @Sendable (Store) -> Void) {
        let store = store
        queue.async { work(store) }
    }

    /// Waits until the writer thread has finished what it was given (at exit, before the store closes).
    /// The outcome of a batch finished meanwhile is not delivered: nobody is left to answer.
    func drain() { queue.sync {} }

    private func readable() {
        var bytes: UInt64 = 0
        _ = read(done[0], &bytes, 8)
        guard let outcome = outbox.outcome.withLock({ o -> Outbox.Outcome? in
            defer { o = nil }
            return o
        }) else { return }
        busy = false
        switch outcome {
        case .durable: onDone(nil)
        case .failed(let error): onDone(error)
        }
    }
}
