import Foundation
import Testing
@testable import CoreSeed

/// The one thread handoff, for batches and for one value computed on a thread of its own.
@Suite struct BatchHandoffTests {
    private struct Failed: Error, Equatable {}

    @Test func batchesComeInOrderThenTheEnd() throws {
        let handoff = BatchHandoff<Int, Failed>(capacity: 2)
        handoff.producerStarting()
        Thread {
            for batch in 1...50 where !handoff.put(batch) { break }
            handoff.finish(nil)
        }.start()
        var taken: [Int] = []
        while let batch = try handoff.take() { taken.append(batch) }
        #expect(taken == Array(1...50))
    }

    @Test func theFailureComesAfterTheBatchesPutBeforeIt() throws {
        let handoff = BatchHandoff<Int, Failed>(capacity: 4)
        #expect(handoff.put(1))
        handoff.finish(Failed())
        #expect(try handoff.take() == 1)
        #expect(throws: Failed()) { try handoff.take() }
    }

    @Test func oneValueIsWaitedForAndStaysForEveryWaiter() throws {
        let handoff = BatchHandoff<String, any Error>(capacity: 1)
        Thread {
            Thread.sleep(forTimeInterval: 0.01)
            handoff.deliver(.success("done"))
        }.start()
        #expect(try handoff.wait().get() == "done")
        #expect(try handoff.wait().get() == "done")
    }

    @Test func aFailedValueIsItsError() {
        let handoff = BatchHandoff<String, Failed>(capacity: 1)
        Thread { handoff.deliver(.failure(Failed())) }.start()
        #expect(throws: Failed()) { try handoff.wait().get() }
    }
}
