import Foundation
import Testing

@testable import ChoreoServer

/// The render executor's threads (`RenderExecutor`).
@Suite struct RenderExecutorTests {
    /// An executor its owner lets go of at once, as a server that cannot bind its port does,
    /// stays alive for its threads, which go on running what is submitted to it; they held it
    /// unowned, and read it after it was freed (a crash of `choreo serve` on a taken port).
    @Test func threadsKeepTheirExecutor() throws {
        weak var dropped: RenderExecutor?
        var kept: RenderExecutor?
        do {
            let executor = RenderExecutor(threads: 2, queueLimit: 4)
            dropped = executor
            kept = executor
        }
        kept = nil
        #expect(kept == nil)
        let executor = try #require(dropped, "the executor was freed while its threads run")
        let done = DispatchSemaphore(value: 0)
        #expect(executor.submit(admit: true) { done.signal() })
        #expect(done.wait(timeout: .now() + 10) == .success)
    }
}
