import ChoreoEngine
import ChoreoJSON

/// A scene run and a sampling query checked against each other and against the limits: the
/// frame times, and for each layer the key paths to write.
public struct RenderPlan: Sendable {
    public let timeline: Timeline
    /// The scene's natural end (the response's `duration`).
    public let duration: Double
    /// Sample times in output order.
    public let times: [Double]
    /// The JSON keys of the layers and columns.
    let tables: FrameTables
    /// Frames × property samples.
    public let sampleCount: Int
    /// The frames: selected layers, their columns, compiled for sampling.
    public let frames: FramePlan
    /// Significant digits of the values under `layers` (`precision`); nil: exact.
    public let precision: Int?

    struct Column: Sendable {
        let name: String
        let keyPath: KeyPath?
    }

    static func keyBytes(_ name: String) -> [UInt8] {
        var writer = JSONWriter(capacity: name.utf8.count + 3)
        writer.key(name)
        return writer.bytes
    }

    /// Runs the scene and plans the sampling; errors name the query field at fault.
    /// `shouldStop` is the runner's (``SceneRunner/run(_:horizon:shouldStop:)``): once it says
    /// yes the run ends with an error on `$`.
    ///
    /// The scene is consumed: a caller that passes it with `consume` frees it once it has run,
    /// before the sampling is planned and compiled.
    ///
    /// `releasingLeaves`: the plan is read only through its frames and the trailer (a JSON or
    /// NDJSON response), so one whose columns all compiled may let go of the timeline's leaves
    /// (``make(timeline:query:releasingLeaves:)``).
    ///
    /// `afterRun` is called once the scene has run, before the sampling is planned: the moment
    /// the run's own state has been let go and the program is not yet built.
    public static func make(
        scene: consuming Scene, query: SamplingQuery, shouldStop: (@Sendable () -> Bool)? = nil,
        releasingLeaves: Bool = false, afterRun: () -> Void = {}
    ) throws(ValidationFailure) -> RenderPlan {
        // The scene runs to its natural end, whatever is sampled; a scene that never settles is
        // followed to the sampling end (10 s at least), so an explicit `end` looks further.
        let timeline: Timeline
        do {
            timeline = try SceneRunner.run(
                consume scene, horizon: query.times?.max() ?? query.end, shouldStop: shouldStop)
        } catch {
            throw ValidationFailure([FieldError(path: error.path, message: error.message)])
        }
        afterRun()
        return try make(timeline: consume timeline, query: query, releasingLeaves: releasingLeaves)
    }

    /// Plans the sampling of a scene already run. `releasingLeaves`: nobody else keeps the
    /// timeline and nothing reads it but through the frames and the trailer, so a JSON or NDJSON
    /// plan whose columns all compiled lets go of its leaves
    /// (``FramePlan/init(timeline:times:selected:columns:releasingLeaves:)``; about 10 MB for
    /// 10,000 layers). Pictures read the timeline: theirs are kept.
    public static func make(
        timeline: consuming Timeline, query: SamplingQuery, releasingLeaves: Bool = false
    ) throws(ValidationFailure) -> RenderPlan {
        var errors: [FieldError] = []
        let duration = SceneTime.quantize(timeline.naturalEnd)
        var times: [Double] = []
        if let explicit = query.times {
            times = explicit.map(SceneTime.quantize)
        } else {
            let end = SceneTime.quantize(max(query.end ?? duration, query.start))
            let span = end - query.start
            let count = (span * query.fps + 1e-6).rounded(.down) + 1
            // The grid from `start`, and the end itself when it falls between two grid times:
            // the last frame shows the scene's end, not the frame before it.
            let onGrid = abs(query.start + (count - 1) / query.fps - end) < MediaTiming.resolution
            if count + (onGrid ? 0 : 1) > Double(FormatLimits.maxFrames) {
                errors.append(
                    FieldError(
                        path: "query.fps",
                        message:
                            "\(JSONReader.format(count)) frames requested; at most \(FormatLimits.maxFrames) frames per response (lower fps or narrow start…end)"
                    ))
            } else {
                times = (0..<Int(count)).map { SceneTime.quantize(query.start + Double($0) / query.fps) }
                if !onGrid, let last = times.last, last < end { times.append(end) }
            }
        }
        var selected = [Bool](repeating: query.layers == nil, count: timeline.layers.count)
        if let layers = query.layers {
            for (index, id) in layers.enumerated() {
                if let layer = timeline.layerIndex[id] {
                    selected[layer] = true
                } else {
                    errors.append(
                        .unknown(
                            "query.layers[\(index)]", "no layer has the id \"\(id)\"", id,
                            among: timeline.layers.map(\.id)))
                }
            }
        }
        let explicit: [Column]? = query.properties.map { names in
            names.map { Column(name: $0, keyPath: KeyPath($0)) }
        }
        // The explicit columns each layer type takes, filtered once per type and shared by the
        // layers of that type (one array each, not one per layer): a long `properties=` list
        // over many layers costs no more memory than the list.
        var explicitByType: [LayerType: [Column]] = [:]
        if let explicit {
            for track in timeline.layers where explicitByType[track.type] == nil {
                explicitByType[track.type] = explicit.filter { $0.keyPath?.property.belongs(to: track.type) ?? true }
            }
        }
        var columns: [[Column]] = []
        var columnsPerFrame = 0
        for (index, track) in timeline.layers.enumerated() {
            var layerColumns: [Column]
            if explicit != nil {
                // Unselected layers need no columns.
                layerColumns = selected[index] ? explicitByType[track.type] ?? [] : []
            } else {
                var properties = track.animatedProperties
                properties.formUnion([.position, .bounds, .opacity, .transform])
                layerColumns = properties.map { Column(name: $0.rawValue, keyPath: KeyPath($0)) }
                if !track.transitionsEmpty { layerColumns.append(Column(name: "transition", keyPath: nil)) }
                if track.type == .emitter { layerColumns.append(Column(name: "particles", keyPath: nil)) }
            }
            columns.append(layerColumns)
            if selected[index] { columnsPerFrame += layerColumns.count }
        }
        // Particles are the one column whose size a scene multiplies at run time: bounded per
        // frame on the most the script can reach, before any frame is drawn.
        var particles = 0.0
        var heaviest: (index: Int, count: Double)?
        for (index, layerColumns) in columns.enumerated()
        where selected[index] && layerColumns.contains(where: { $0.keyPath == nil && $0.name == "particles" }) {
            let bound = timeline.particleBound(layer: index)
            particles += bound
            if bound > heaviest?.count ?? 0 { heaviest = (index, bound) }
        }
        if particles > Double(FormatLimits.maxParticlesPerFrame), let heaviest {
            errors.append(
                FieldError(
                    path: query.layers == nil ? "query.layers" : "query.properties",
                    message:
                        "a frame could draw up to \(JSONReader.format(particles)) particles, \(JSONReader.format(particles - Double(FormatLimits.maxParticlesPerFrame))) over the \(FormatLimits.maxParticlesPerFrame) a frame may carry (the most: \(JSONReader.format(heaviest.count)) of layer \"\(timeline.layers[heaviest.index].id)\"); select fewer emitter layers with layers=, leave out particles with properties=, or lower their birthRate or lifetime"
                ))
        }
        let samples = times.count * max(columnsPerFrame, 1)
        let limit = query.format == .json ? FormatLimits.maxSamplesJSON : FormatLimits.maxSamplesNDJSON
        if samples > limit {
            errors.append(
                FieldError(
                    path: query.times == nil ? "query.fps" : "query.times",
                    message:
                        "\(samples) samples requested; at most \(limit) per \(query.format.rawValue) response (fewer frames, layers or properties, or format=ndjson)"
                ))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        // A picture's frames are drawn: its plan has what the render server reads of every
        // layer (FramePlan.drawnColumns), and no JSON keys.
        if query.format.isPicture {
            let members = FramePlan.drawnColumns(timeline)
            let frames = FramePlan(
                timeline: consume timeline, times: times, selected: selected, columns: members)
            return RenderPlan(
                timeline: frames.timeline, duration: duration, times: times,
                tables: FrameTables(keyBytes: [], columnKeys: [], layerKeys: []), sampleCount: samples,
                frames: frames, precision: query.precision)
        }
        // The timeline and the columns' members go to the plan: it lets go of the leaves in
        // place, and what follows reads the plan's.
        let frames = FramePlan(
            timeline: consume timeline, times: times, selected: selected,
            columns: columns.map { layer in
                layer.map { column in
                    column.keyPath.map { .keyPath($0) } ?? (column.name == "particles" ? .particles : .transition)
                }
            }, releasingLeaves: releasingLeaves)
        // Keys are escaped once, in the plan's column order.
        var keyBytes: [UInt8] = []
        var columnKeys: [Range<Int>] = []
        var layerKeys: [Range<Int>] = []
        func appendKey(_ name: String) -> Range<Int> {
            let start = keyBytes.count
            keyBytes += RenderPlan.keyBytes(name)
            return start..<keyBytes.count
        }
        for layer in columns.indices {
            layerKeys.append(appendKey(frames.timeline.layers[layer].id))
            if selected[layer] {
                for column in columns[layer] { columnKeys.append(appendKey(column.name)) }
            }
        }
        return RenderPlan(
            timeline: frames.timeline, duration: duration, times: times,
            tables: FrameTables(keyBytes: keyBytes, columnKeys: columnKeys, layerKeys: layerKeys),
            sampleCount: samples, frames: frames, precision: query.precision)
    }
}
