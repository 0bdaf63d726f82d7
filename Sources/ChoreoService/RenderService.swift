import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoLibraries
import ChoreoTransport
import Foundation
import Synchronization

/// Scene document + sampling query → response body: the one path shared by
/// `POST /v1/render`, `GET /v1/scenes/{id}/frames`, sessions' and the arena's frames and
/// `choreo render`, so all of them return the same bytes. What `CALayer.presentation()` is
/// for one layer at one instant, for a whole scene over the times asked.
public enum RenderService {
    /// The status logged for a render whose client went away before it finished (nginx's 499,
    /// "client closed request"; never sent).
    public static let cancelledStatus = 499

    /// Frames per NDJSON piece, at most (``RenderPieces/framesPerPiece``).
    public static let framesPerPiece = RenderPieces.framesPerPiece
    /// Bytes a piece aims at: after a piece larger than this the next ones take fewer frames
    /// (one at least), so a stream of large frames holds a frame or so, not 64
    /// (``RenderPieces/pieceBytes``).
    public static let pieceBytes = RenderPieces.pieceBytes

    /// Threads a render uses unless told otherwise: the processors this process may use,
    /// as `ProcessInfo` counts them (CPU affinity and a container's CPU limit included).
    /// ``ResponseEncoder/defaultThreads``, below Foundation, counts the processors online.
    public static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Parses and validates a scene document.
    public static func scene(from body: consuming [UInt8]) throws(ServiceError) -> (scene: Scene, name: String?) {
        do {
            return try SceneDecoder.decode(bytes: consume body)
        } catch {
            throw ServiceError(error)
        }
    }

    /// Reads the render query: the sampling and the picture's parameters.
    public static func query(_ parameters: [(String, String)]) throws(ServiceError) -> RenderQuery {
        do {
            return try RenderQuery.parse(parameters)
        } catch {
            throw ServiceError.invalidScene(error)
        }
    }

    /// The render memory a scene document is held to while it is parsed, decoded, run and
    /// sampled, decided from its bytes before it is parsed: ``runBytesPerByte`` for each byte
    /// (strings and paths) and ``runBytesPerValue`` for each value in it (each `,`, `{` and
    /// `[`, counted without parsing). Measured heap peaks (massif): 13.5 bytes per document
    /// byte (about 120 per value) for 10,000 layers × 3 animations, 13.4 (about 100 per value)
    /// for 20,000 layers without animations, about 160 per value for one long keyframe list.
    public static func runEstimate(_ document: [UInt8]) -> Int {
        var values = 0
        document.withUnsafeBufferPointer { bytes in
            for byte in bytes where byte == UInt8(ascii: ",") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
            {
                values += 1
            }
        }
        return document.count * runBytesPerByte + values * runBytesPerValue
    }

    public static let runBytesPerByte = 8
    public static let runBytesPerValue = 256
    /// Render memory taken as a scene runs, for every 4,096 runtime events (about 720 bytes an
    /// event), so a short document whose script loops is held to what it records.
    public static let runBytesPerEventBatch = 3 << 20

    /// Reserves the render memory a scene document needs (``runEstimate(_:)``) before it is
    /// parsed: 503 with `Retry-After` while the renders in flight hold it, and 422 naming the
    /// body when it could never fit.
    public static func reserveRun(_ document: [UInt8], memory: RenderMemory) throws(ServiceError)
        -> RenderMemory.Reservation
    {
        let estimate = runEstimate(document)
        if estimate > memory.limit {
            throw ServiceError.overLimit(
                "body",
                "a scene document of \(document.count) bytes needs about \(estimate) bytes of render "
                    + "memory to run, more than this server's \(memory.limit) (--max-render-memory)",
                limit: memory.limit, estimate: estimate)
        }
        guard let reservation = memory.reserve(estimate) else { throw busy(memory) }
        return reservation
    }

    /// A scene document's render memory reserved (``reserveRun(_:memory:)``), then the document
    /// parsed and validated: what every route that renders a document does first. The document
    /// is consumed, so it is freed once parsed.
    public static func prepare(_ document: consuming [UInt8], memory: RenderMemory) throws(ServiceError)
        -> (scene: Scene, name: String?, run: RenderMemory.Reservation)
    {
        let run = try reserveRun(document, memory: memory)
        let (scene, name) = try scene(from: consume document)
        return (consume scene, name, run)
    }

    /// The media type a query's answer has (what `HEAD` on a frames route says without
    /// running anything).
    public static func contentType(_ query: RenderQuery) -> String {
        switch query.sampling.format {
        case .json: "application/json"
        case .ndjson: "application/x-ndjson"
        case .png, .apng, .filmstrip, .webp, .webm: PictureService.contentType(query.sampling.format)
        }
    }

    /// Runs the scene and plans the sampling; a `cancellation` set during the run stops it
    /// (the caller answers ``cancelledStatus``). With a `run` reservation, the run takes
    /// ``runBytesPerEventBatch`` more of it every 4,096 events, and stops with a 503 when the
    /// render memory is all held.
    ///
    /// A large render (a `run` reservation of ``RenderMemory/trimAfterBytes`` or more, or
    /// always with `releasingFreePages`, as `choreo render` asks) gives the heap's free pages
    /// back after the run and after the plan: the small blocks the run and the released leaves
    /// free are not what the compile and the frames write into (large buffers are mappings of
    /// their own, `Allocator`), so the peaks are lower.
    public static func plan(
        _ scene: consuming Scene, _ query: SamplingQuery, cancellation: Cancellation? = nil,
        run: RenderMemory.Reservation? = nil, memory: RenderMemory? = nil, releasingFreePages: Bool = false
    ) throws(ServiceError) -> RenderPlan {
        let guarded = RunGuard(cancellation: cancellation, run: run)
        do {
            // The plan is read only to make the response: a JSON or NDJSON one lets go of the
            // leaves its compiled program does not need.
            let large = { releasingFreePages || (run?.bytes ?? 0) >= RenderMemory.trimAfterBytes }
            let plan = try RenderPlan.make(
                scene: consume scene, query: query, shouldStop: guarded.shouldStop, releasingLeaves: true,
                afterRun: { if large() { Allocator.releaseFreePages() } })
            if large() { Allocator.releaseFreePages() }
            return plan
        } catch {
            if guarded.outOfMemory, let memory { throw busy(memory) }
            throw ServiceError.invalidScene(error)
        }
    }

    /// Runs a scene whose run memory `run` holds and makes its output: ``plan(_:_:cancellation:run:memory:releasingFreePages:)``
    /// then ``response(_:format:threads:cancellation:byteBudget:memory:query:)``, the output
    /// holding the run's memory until it has been sent; `planned` sees the plan first (the
    /// server counts its frames and samples). A client gone while it ran:
    /// ``ServiceError/cancelled``.
    public static func render(
        _ scene: consuming Scene, _ query: RenderQuery, cancellation: Cancellation?, run: RenderMemory.Reservation?,
        memory: RenderMemory?, threads: Int, byteBudget: Int?, planned: (RenderPlan) -> Void = { _ in }
    ) throws(ServiceError) -> RenderOutput {
        do {
            let plan = try RenderService.plan(
                consume scene, query.sampling, cancellation: cancellation, run: run, memory: memory)
            planned(plan)
            var output = try RenderService.response(
                plan, format: query.sampling.format, threads: threads, cancellation: cancellation,
                byteBudget: byteBudget,
                memory: memory, query: query, holding: run?.bytes ?? 0)
            if let run {
                if let held = output.reservation { held.absorb(run) } else { output.reservation = run }
            }
            return output
        } catch {
            // The client left while the scene ran: nobody reads the answer.
            if cancellation?.isCancelled == true { throw .cancelled }
            throw error
        }
    }

    /// A scene document checked before it is stored (`POST /v1/scenes`): parsed, validated and
    /// run once under its render memory, so that a stored scene can always be rendered. Its
    /// name and the document as sent.
    public static func checkedForStorage(
        _ document: [UInt8], cancellation: Cancellation?, memory: RenderMemory
    ) throws(ServiceError) -> (name: String?, document: [UInt8]) {
        let run = try reserveRun(document, memory: memory)
        let (scene, name) = try RenderService.scene(from: document)
        let guarded = RunGuard(cancellation: cancellation, run: run)
        do {
            _ = try SceneRunner.run(scene, shouldStop: guarded.shouldStop)
        } catch {
            if guarded.outOfMemory { throw busy(memory) }
            throw ServiceError.invalidField(error.path, error.message)
        }
        return (name, document)
    }

    /// What stops a scene's run early (the runner asks every 4,096 events): its client gone,
    /// or its render memory, grown by ``runBytesPerEventBatch`` each time, not available.
    final class RunGuard: Sendable {
        private let cancellation: Cancellation?
        private let run: RenderMemory.Reservation?
        private let short = Atomic<Bool>(false)

        init(cancellation: Cancellation?, run: RenderMemory.Reservation?) {
            self.cancellation = cancellation
            self.run = run
        }

        /// The runner's `shouldStop`, nil when nothing can stop the run.
        var shouldStop: (@Sendable () -> Bool)? {
            guard cancellation != nil || run != nil else { return nil }
            return { [self] in
                if cancellation?.isCancelled == true { return true }
                if let run, !run.grow(RenderService.runBytesPerEventBatch) {
                    short.store(true, ordering: .relaxed)
                    return true
                }
                return false
            }
        }

        /// Whether the run stopped because its render memory was not available.
        var outOfMemory: Bool { short.load(ordering: .relaxed) }
    }

    /// The response for a plan: one JSON document, or an NDJSON stream produced piece by piece.
    ///
    /// A JSON document's size is decided before its frames are written: a few frames are
    /// drawn and the largest, times the frames, is the estimate. Over `byteBudget`: 422 naming
    /// `query.format` and by how much, with no frame written; past it while written (frames
    /// that grow), the same 422. With `memory` the estimate is reserved there first and the
    /// bytes beyond it as they come: when the renders in flight hold it all, 503 with
    /// `Retry-After`. With a `cancellation` set while the JSON document is produced, the frames
    /// left are not computed and the answer is ``ServiceError/cancelled`` (nobody is there to
    /// read it: it only reaches the log as ``cancelledStatus``). An NDJSON stream stops when
    /// its connection ends.
    public static func response(
        _ plan: RenderPlan, format: SamplingQuery.Format, threads: Int, cancellation: Cancellation? = nil,
        byteBudget: Int? = nil, memory: RenderMemory? = nil, query: RenderQuery? = nil, holding: Int = 0
    ) throws(ServiceError) -> RenderOutput {
        switch format {
        case .png, .apng, .filmstrip, .webp, .webm:
            return try PictureService.output(
                plan, query ?? RenderQuery(), cancellation: cancellation, memory: memory, holding: holding)
        case .json:
            let estimate = estimatedJSONBytes(plan, cancellation: cancellation)
            if cancellation?.isCancelled == true { throw .cancelled }
            if let byteBudget, estimate > byteBudget {
                throw ServiceError.responseTooLarge(limit: byteBudget, estimate: estimate)
            }
            if estimate > streamJSONAbove {
                return try streamedJSON(plan, threads: threads, memory: memory)
            }
            var reserved: RenderMemory.Reservation?
            if let memory, estimate > memory.limit {
                // It would never fit, however long the client waits.
                throw ServiceError.responseTooLarge(limit: memory.limit, estimate: estimate)
            }
            if let memory {
                guard let taken = memory.reserve(estimate) else { throw busy(memory) }
                reserved = taken
            }
            let reservation = reserved
            let budget = ByteBudget(limit: byteBudget ?? Int.max)
            let memoryShort = Atomic<Bool>(false)
            let keepGoing: @Sendable (Int) -> Bool = { bytes in
                if cancellation?.isCancelled == true { return false }
                guard budget.spend(bytes) else { return false }
                if let reservation {
                    let beyond = budget.total - reservation.bytes
                    if beyond > 0 && !reservation.grow(max(beyond, 1 << 20)) {
                        memoryShort.store(true, ordering: .relaxed)
                        return false
                    }
                }
                return true
            }
            guard let bytes = ResponseEncoder.json(plan, threads: threads, keepGoing: keepGoing) else {
                if budget.exceeded { throw ServiceError.responseTooLarge(limit: budget.limit) }
                if memoryShort.load(ordering: .relaxed), let memory { throw busy(memory) }
                throw .cancelled
            }
            return RenderOutput(
                body: .bytes(bytes), contentType: "application/json", reservation: reservation)
        case .ndjson:
            return RenderOutput(
                body: .stream(ndjsonStream(plan, threads: threads)), contentType: "application/x-ndjson")
        }
    }

    /// A JSON document estimated larger than this is streamed in pieces (chunked) rather than
    /// built whole: the server holds a piece of it at a time, whatever its size.
    public static let streamJSONAbove = 4 << 20
    /// What a streamed document holds at once (a piece, the connection's buffer and the frame
    /// being written), reserved against the render memory while it is sent.
    public static let streamReservation = 4 << 20

    /// A JSON document in pieces, byte for byte the one built whole.
    static func streamedJSON(_ plan: RenderPlan, threads: Int, memory: RenderMemory?) throws(ServiceError)
        -> RenderOutput
    {
        var reservation: RenderMemory.Reservation?
        if let memory {
            if streamReservation > memory.limit {
                throw ServiceError.responseTooLarge(limit: memory.limit, estimate: streamReservation)
            }
            guard let taken = memory.reserve(streamReservation) else { throw busy(memory) }
            reservation = taken
        }
        var pieces = RenderPieces(plan, format: .json, threads: threads)
        return RenderOutput(
            body: .stream(BodyStream(pulling: { pieces.next().map(BodyStream.Piece.bytes) ?? .end })),
            contentType: "application/json", reservation: reservation)
    }

    /// Busy, try again in a second: the renders in flight hold the render memory.
    public static func busy(_ memory: RenderMemory) -> ServiceError {
        .busy("The renders in flight hold the server's render memory (\(memory.limit) bytes); try again shortly.")
    }

    /// Frames drawn to size a JSON document before it is written.
    static let probeFrames = 3

    /// A JSON document's size before it is written: its header and trailer, and the largest of
    /// the first, middle and last frames for every frame (the frames that grow past it are
    /// caught as they are written).
    public static func estimatedJSONBytes(_ plan: RenderPlan, cancellation: Cancellation? = nil) -> Int {
        let count = plan.times.count
        var largest = 0
        if count > 0 {
            let probes = Set([0, count / 2, count - 1])
            for index in probes.sorted() where cancellation?.isCancelled != true {
                largest = max(largest, ResponseEncoder.jsonFrames(plan, range: index..<index + 1, threads: 1).count)
            }
        }
        let ends =
            ResponseEncoder.jsonHeader(plan).count
            + TrailerPieces.size(plan.timeline, format: .json, pieceBytes: RenderService.pieceBytes)
        let (frames, overflow) = largest.multipliedReportingOverflow(by: count)
        return overflow ? Int.max : frames &+ ends
    }

    /// An NDJSON body: the header line, frames in pieces of ``framesPerPiece``, the trailer line.
    public static func ndjsonStream(_ plan: RenderPlan, threads: Int) -> BodyStream {
        var pieces = RenderPieces(plan, format: .ndjson, threads: threads)
        return BodyStream(pulling: { pieces.next().map(BodyStream.Piece.bytes) ?? .end })
    }

    /// `POST /v1/validate` and `choreo validate`: the errors, or the diagnostics and events of
    /// a run; no frames. A body that is not JSON throws.
    public static func validation(
        _ body: [UInt8], cancellation: Cancellation? = nil, memory: RenderMemory? = nil
    ) throws(ServiceError) -> ValidationReport {
        let run = try memory.map { (memory) throws(ServiceError) in try reserveRun(body, memory: memory) }
        let scene: Scene
        do {
            scene = try SceneDecoder.decode(bytes: body).scene
        } catch {
            switch error {
            case .malformed(let parse): throw ServiceError.malformedJSON(parse)
            case .invalid(let failure): return ValidationReport(errors: failure.errors)
            }
        }
        let guarded = RunGuard(cancellation: cancellation, run: run)
        let timeline: Timeline
        do {
            timeline = try SceneRunner.run(scene, shouldStop: guarded.shouldStop)
        } catch {
            if guarded.outOfMemory, let memory { throw busy(memory) }
            return ValidationReport(errors: [FieldError(path: error.path, message: error.message)])
        }
        return ValidationReport(
            duration: SceneTime.quantize(timeline.naturalEnd), diagnostics: timeline.diagnostics,
            events: timeline.events)
    }
}

extension ServiceError {
    /// A scene document that is not JSON, or not a valid scene.
    public init(_ error: SceneDocumentError) {
        switch error {
        case .malformed(let parse): self = .malformedJSON(parse)
        case .invalid(let failure): self = .invalidScene(failure)
        }
    }
}

/// Bytes a JSON document may still grow by, spent by the threads that write its frames.
final class ByteBudget: Sendable {
    let limit: Int
    private let spent = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// Spends `bytes`; false once the total passes the limit.
    func spend(_ bytes: Int) -> Bool {
        spent.add(bytes, ordering: .relaxed).newValue <= limit
    }

    /// Bytes spent so far.
    var total: Int { spent.load(ordering: .relaxed) }

    var exceeded: Bool { spent.load(ordering: .relaxed) > limit }
}
