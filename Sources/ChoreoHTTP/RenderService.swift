import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import Synchronization

/// Scene document + sampling query → response body: the one path shared by
/// `POST /v1/render`, `GET /v1/scenes/{id}/frames` and `choreo render`, so all three return the
/// same bytes.
public enum RenderService {
    /// The status logged for a render whose client went away before it finished (nginx's 499,
    /// "client closed request"; never sent).
    public static let cancelledStatus = 499

    /// Frames per NDJSON piece.
    public static let framesPerPiece = 64

    /// Parses and validates a scene document.
    public static func scene(from body: [UInt8]) throws(Problem) -> (scene: Scene, name: String?) {
        do {
            return try SceneDecoder.decode(bytes: body)
        } catch {
            switch error {
            case .malformed(let parse): throw Problem.malformedJSON(parse)
            case .invalid(let failure): throw Problem.invalidScene(failure)
            }
        }
    }

    /// Reads the sampling query.
    public static func query(_ parameters: [(String, String)]) throws(Problem) -> SamplingQuery {
        do {
            return try SamplingQuery.parse(parameters)
        } catch {
            throw Problem.invalidScene(error)
        }
    }

    /// Runs the scene and plans the sampling.
    public static func plan(_ scene: Scene, _ query: SamplingQuery) throws(Problem) -> RenderPlan {
        do {
            return try RenderPlan.make(scene: scene, query: query)
        } catch {
            throw Problem.invalidScene(error)
        }
    }

    /// The response for a plan: one JSON document, or an NDJSON stream produced piece by piece.
    /// A JSON document over `byteBudget` bytes is not finished: 422 naming `query.format`.
    /// With a `cancellation` set while the JSON document is produced, the frames left are not
    /// computed and the response is ``cancelledStatus`` with no body (nobody is there to read it:
    /// it only reaches the log). An NDJSON stream stops when its connection ends.
    public static func response(
        _ plan: RenderPlan, format: SamplingQuery.Format, threads: Int, cancellation: Cancellation? = nil,
        byteBudget: Int? = nil
    ) -> HTTPResponse {
        switch format {
        case .json:
            let budget = byteBudget.map { ByteBudget(limit: $0) }
            var keepGoing: (@Sendable (Int) -> Bool)?
            if cancellation != nil || budget != nil {
                keepGoing = { bytes in
                    if cancellation?.isCancelled == true { return false }
                    return budget?.spend(bytes) ?? true
                }
            }
            guard let bytes = ResponseEncoder.json(plan, threads: threads, keepGoing: keepGoing) else {
                if let budget, budget.exceeded { return Problem.responseTooLarge(limit: budget.limit).response }
                return HTTPResponse(status: cancelledStatus)
            }
            return .json(200, bytes)
        case .ndjson:
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/x-ndjson")],
                body: .stream(ndjsonStream(plan, threads: threads)))
        }
    }

    /// An NDJSON body: the header line, frames in pieces of ``framesPerPiece``, the trailer line.
    public static func ndjsonStream(_ plan: RenderPlan, threads: Int) -> BodyStream {
        var pieces = RenderPieces(plan, format: .ndjson, threads: threads)
        return BodyStream { pieces.next() }
    }

    /// `POST /v1/validate`: errors and diagnostics, no frames.
    public static func validation(_ body: [UInt8]) throws(Problem) -> [UInt8] {
        var writer = JSONWriter()
        do {
            let (scene, _) = try SceneDecoder.decode(bytes: body)
            let timeline: Timeline
            do {
                timeline = try SceneRunner.run(scene)
            } catch {
                writeInvalid([FieldError(path: error.path, message: error.message)], into: &writer)
                return writer.bytes
            }
            writer.raw("{\"valid\":true,\"errors\":[],\"duration\":")
            writer.number(SceneTime.quantize(timeline.naturalEnd))
            writer.raw(",\"diagnostics\":")
            ResponseEncoder.writeDiagnostics(timeline.diagnostics, into: &writer)
            writer.raw(",\"events\":")
            ResponseEncoder.writeEvents(timeline.events, into: &writer)
            writer.raw("}")
        } catch {
            switch error {
            case .malformed(let parse): throw Problem.malformedJSON(parse)
            case .invalid(let failure): writeInvalid(failure.errors, into: &writer)
            }
        }
        return writer.bytes
    }

    private static func writeInvalid(_ errors: [FieldError], into writer: inout JSONWriter) {
        writer.raw("{\"valid\":false,\"errors\":")
        ResponseEncoder.writeFieldErrors(errors, into: &writer)
        writer.raw(",\"diagnostics\":[]}")
    }
}

/// A render response in order, a header, pieces of frames and a trailer, counting the frames
/// written: the NDJSON body streams it, and `choreo render` writes it with its progress. The
/// pieces joined are byte for byte ``ResponseEncoder/json(_:threads:)`` or the NDJSON lines.
public struct RenderPieces {
    enum Stage {
        case header
        case frames(from: Int)
        case trailer
        case done
    }

    let plan: RenderPlan
    let format: SamplingQuery.Format
    let threads: Int
    let framesPerPiece: Int
    var stage = Stage.header
    /// Frames in the response.
    public var total: Int { plan.times.count }
    /// Frames returned so far.
    public private(set) var framesDone = 0

    public init(
        _ plan: RenderPlan, format: SamplingQuery.Format, threads: Int,
        framesPerPiece: Int = RenderService.framesPerPiece
    ) {
        self.plan = plan
        self.format = format
        self.threads = threads
        self.framesPerPiece = max(1, framesPerPiece)
    }

    /// The next piece, nil after the trailer.
    public mutating func next() -> [UInt8]? {
        switch stage {
        case .header:
            stage = total > 0 ? .frames(from: 0) : .trailer
            return format == .json ? ResponseEncoder.jsonHeader(plan) : ResponseEncoder.ndjsonHeader(plan)
        case .frames(let lower):
            let upper = min(lower + framesPerPiece, total)
            stage = upper < total ? .frames(from: upper) : .trailer
            framesDone = upper
            return format == .json
                ? ResponseEncoder.jsonFrames(plan, range: lower..<upper, threads: threads)
                : ResponseEncoder.ndjsonFrames(plan, range: lower..<upper, threads: threads)
        case .trailer:
            stage = .done
            return format == .json ? ResponseEncoder.jsonTrailer(plan) : ResponseEncoder.ndjsonTrailer(plan)
        case .done:
            return nil
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

    var exceeded: Bool { spent.load(ordering: .relaxed) > limit }
}
