import Foundation
import Logging
import MeterWire

/// The upload loop and those waiting on it.
extension DeliveryQueue {
    func startUploading() {
        guard machine.beginUpload() else { return }
        uploadTask = Task { await self.upload() }
    }

    /// The single uploader: one request in flight, waiting out backoffs, until nothing is left
    /// that may be sent (the queue is empty, or what is left is held by disabled instances).
    private func upload() async {
        while !Task.isCancelled {
            var actions: [DeliveryAction] = []
            let attempt = machine.nextAttempt(base: baseURL, at: clock.now(), into: &actions)
            perform(actions)
            guard let attempt else { break }
            let outcome = await transport.send(attempt.request)
            actions = []
            var generator = SystemRandomBits()
            let random = Double.random(in: 0..<1, using: &generator)
            let next = machine.received(outcome, for: attempt, at: clock.now(), random: random, into: &actions)
            perform(actions)
            if case .backOff(let deadline) = next { await backOff(until: deadline) }
            publish()
        }
        machine.endUpload()
        uploadTask = nil
        notifyWaiters()
    }

    /// Waits until `deadline` on the clock, or until ``deliverPromptly()`` cuts the wait short.
    private func backOff(until deadline: MeterInstant) async {
        publish()
        notifyWaiters()
        let clock = self.clock
        let pause = Task { _ = try? await clock.sleep(until: deadline) }
        backoffTask = pause
        await pause.value
        backoffTask = nil
        machine.backoffEnded()
    }

    // MARK: Observers

    /// Returns once the queue is empty or sending is paused (``QueueSettlement/idle``); with
    /// `orBackingOff`, also once the queued pings wait for a retry (``QueueSettlement/retrying(at:)``).
    func waitUntilSettled(orBackingOff: Bool = false) async -> QueueSettlement {
        if let settlement = machine.settlement(acceptingBackoff: orBackingOff) { return settlement }
        return await withCheckedContinuation { waiters.append(Waiter(acceptsBackoff: orBackingOff, continuation: $0)) }
    }

    func notifyWaiters() {
        waiters.removeAll { waiter in
            guard let settlement = machine.settlement(acceptingBackoff: waiter.acceptsBackoff) else { return false }
            waiter.continuation.resume(returning: settlement)
            return true
        }
    }

    /// Publishes the diagnostics and logs them at DEBUG through every attached instance.
    func publish() {
        let current = machine.diagnostics
        let changed = published.withLock { previous -> Bool in
            defer { previous = current }
            return previous != current
        }
        guard changed else { return }
        for reporter in reporters.values {
            reporter.log.debug("delivery", metadata: ["diagnostics": "\(current.dictionary.sorted { $0.key < $1.key })"])
        }
    }
}
