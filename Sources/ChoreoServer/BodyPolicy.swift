import ChoreoHTTP
import Synchronization

/// The bytes of request bodies all connections hold at once, announced or received, against
/// `Options.bodyMemory`: a body that would pass it is refused (503 with Retry-After), so many
/// slow uploads cannot take the server's memory.
final class BodyMemory: Sendable {
    let limit: Int
    private let held = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// Reserves `count` more bytes; false (nothing reserved) when the bodies would pass the limit.
    func reserve(_ count: Int) -> Bool {
        if held.add(count, ordering: .relaxed).newValue > limit {
            held.subtract(count, ordering: .relaxed)
            return false
        }
        return true
    }

    func release(_ count: Int) { held.subtract(count, ordering: .relaxed) }

    /// Reserves `count` more bytes for a request's body, counted in its state (and released
    /// when it completes).
    func reserve(_ count: Int, for state: RequestState) -> Bool {
        guard reserve(count) else { return false }
        state.reserved += count
        return true
    }

    /// The answer when request bodies already hold the memory allowed them.
    func fullAnswer() -> HTTPResponse {
        var problem = Problem.unavailable(
            "Request bodies in flight hold the \(limit) bytes allowed them. Try again shortly.")
        problem.headers = [("Retry-After", "1"), ("Connection", "close")]
        return problem.response
    }

    /// Bytes held now.
    var bytes: Int { held.load(ordering: .relaxed) }
}

/// What the server does with each chunk of a request body: keep it, drop it, or close the
/// connection. Pure: the adapter applies the step.
struct UploadPolicy: Sendable {
    /// `Options.maxBodyBytes`.
    let maxBodyBytes: Int
    /// `Options.headTimeout`: the grace before the minimum rate applies.
    let headTimeout: Double
    /// `Options.minimumBodyRate`, bytes a second.
    let minimumBodyRate: Double

    enum Step: Equatable {
        /// Cut the connection; the request is logged with this status (nil: as it stands).
        case close(status: Int?)
        /// Read and thrown away: the request was answered from its head.
        case drop
        /// Over the body limit: what was kept is thrown away, and 413 answers at the end.
        case tooLarge
        /// Kept (any bytes beyond those reserved are reserved against the body memory).
        case keep
    }

    /// What a request's head decides before its body is read.
    enum HeadStep {
        /// Answered from its head: a body is then read and dropped (`answered`), or drained to
        /// answer 413 (`tooLarge`).
        case answer(HTTPResponse, answered: Bool, tooLarge: Bool)
        /// Read its body, reserved: `capacity` bytes announced.
        case read(capacity: Int)
    }

    /// The step for a request's head. A query cut off for its length (`overlongQuery`) is
    /// answered 400 at once. Two different `Content-Length`s: which one a proxy in
    /// front believed is unknown (request smuggling), so neither is (400). A request the
    /// token refuses (`refusal`) is answered before its body is read, and before a
    /// `100 Continue` would ask for it. An announced body over the limit is 413; one that the
    /// body memory cannot hold (`reserve`) is `full()`, 503.
    func head(
        overlongQuery: Bool = false, conflictingLengths: Bool, refusal: () -> HTTPResponse?, contentLength: Int?,
        reserve: (Int) -> Bool, full: () -> HTTPResponse
    ) -> HeadStep {
        if overlongQuery { return .answer(overlongQueryAnswer(), answered: true, tooLarge: false) }
        if conflictingLengths {
            return .answer(Problem.conflictingLengths().response, answered: true, tooLarge: false)
        }
        if let refused = refusal() { return .answer(refused, answered: true, tooLarge: false) }
        guard let length = contentLength else { return .read(capacity: 0) }
        if length > maxBodyBytes {
            return .answer(Problem.tooLarge(limit: maxBodyBytes).response, answered: false, tooLarge: true)
        }
        if !reserve(length) { return .answer(full(), answered: false, tooLarge: false) }
        return .read(capacity: length)
    }

    /// The step for a chunk of `count` bytes, `received` bytes in all with it, `seconds` after
    /// the request began, `kept` bytes kept before it, `reserved` reserved for the body;
    /// `reserve` reserves more (a chunked body that would pass the servers' body memory is
    /// cut, logged as 503).
    ///
    /// A body refused as too large is drained (to answer 413) up to as much again, and an
    /// endless one is cut there; one that trickles below the minimum rate once the grace has
    /// passed is cut (408). A request answered from its head has its body read and dropped,
    /// up to the body limit.
    func step(
        count: Int, received: Int, seconds: Double, tooLarge: Bool, answered: Bool, kept: Int, reserved: Int,
        reserve: (Int) -> Bool
    ) -> Step {
        if tooLarge && received > 2 * maxBodyBytes { return .close(status: 413) }
        if seconds > headTimeout && Double(received) / seconds < minimumBodyRate { return .close(status: 408) }
        if answered { return received > maxBodyBytes ? .close(status: nil) : .drop }
        if tooLarge || kept + count > maxBodyBytes { return .tooLarge }
        let more = kept + count - reserved
        return more > 0 && !reserve(more) ? .close(status: 503) : .keep
    }
}
