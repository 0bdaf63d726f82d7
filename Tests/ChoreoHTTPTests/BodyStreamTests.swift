import ChoreoTransport
import Testing

@testable import ChoreoHTTP
@testable import ChoreoService

@Suite struct BodyStreamTests {
    final class Held {}

    /// Closing a stream lets go of its producer and what it holds (a render's plan) while the
    /// stream itself may still be referenced; it answers the end from then on.
    @Test func closingLetsGoOfTheProducer() {
        weak var watched: Held?
        let stream: BodyStream = {
            let held = Held()
            watched = held
            var sent = false
            return BodyStream(pulling: {
                _ = held
                defer { sent = true }
                return sent ? .end : .bytes([1, 2, 3])
            })
        }()
        guard case .bytes(let first) = stream.next() else {
            Issue.record("no first piece")
            return
        }
        #expect(first == [1, 2, 3])
        #expect(watched != nil)
        stream.close()
        #expect(watched == nil)
        guard case .end = stream.next() else {
            Issue.record("a closed stream still produces")
            return
        }
    }
}
