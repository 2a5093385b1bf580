/// What the core's owner needs after each command: when to wake the core, whether playheads may
/// wait for that, and what to publish. Returned by ``MeterCore/handle(_:at:into:)``, so that the
/// owner never reads the core between commands (reading a stored struct's computed properties
/// from an actor copied the whole core, a tenth of an hour of viewing's CPU).
package struct MeterOutlook: Sendable, Equatable {
    /// ``MeterCore/requestedWakeUp``.
    package var requestedWakeUp: MeterInstant?
    /// ``MeterCore/partsWakeUp``.
    package var partsWakeUp: MeterInstant?
    /// ``MeterCore/playheadsMayWait``.
    package var playheadsMayWait: Bool
    /// ``MeterCore/state``.
    package var state: LifecycleState
    /// Calls ignored so far (``MeterProgress/ignoredCalls``).
    package var ignoredCalls: Int
    /// Pings built so far (``MeterProgress/pingsBuilt``). Not the credited totals: an owner
    /// keeping a copy of those would make the core copy them at its next credit; it takes the
    /// changes instead (``MeterCore/takeCredits()``).
    package var pingsBuilt: Int
}

extension MeterCore {
    /// The outlook now.
    @inline(__always)   // read after every command: see ``requestedWakeUp``
    package var outlook: MeterOutlook {
        MeterOutlook(requestedWakeUp: requestedWakeUp, partsWakeUp: partsWakeUp, playheadsMayWait: playheadsMayWait,
                     state: state, ignoredCalls: progress.ignoredCalls, pingsBuilt: progress.pingsBuilt)
    }
}
