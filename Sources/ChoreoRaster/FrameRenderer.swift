import ChoreoEngine

/// Draws the presentation tree of a run at any scene time, as Core Animation's render server
/// composites `CALayer.presentation()`: geometry (bounds, position, anchorPoint, transform —
/// 3-D ones projected — sublayerTransform, zPosition among siblings, hidden), content
/// (backgroundColor, cornerRadius, border over the sublayers, opacity as a group,
/// masksToBounds, blurred shadows), `CAShapeLayer` paths, `CATextLayer` strings and
/// `CAEmitterLayer` particles as discs.
///
/// It reads each frame through a ``FramePlan`` (a visitor of the plan's frames): the values the
/// plan compiled, sampled once, in the same bits as a JSON render's. A plan made for pictures
/// has every layer's ``FramePlan/drawnColumns(_:)``; a property a plan leaves out is read from
/// the timeline.
public struct FrameRenderer: Sendable {
    /// The frames it draws.
    public let frames: FramePlan
    public var timeline: Timeline { frames.timeline }
    /// Per layer, the plan's column of each drawn property (``LayerProperty/ordinal``, below
    /// ``slotCount``), −1 where the plan has none.
    let slots: [Int32]
    static let slotCount = LayerProperty.emitterPosition.ordinal
    /// Per column, where its lanes start in a frame's lane table (−1: a column without lanes),
    /// and the lanes of all columns.
    let laneOffsets: [Int32]
    let laneTotal: Int
    /// Pixels per point, 1…4.
    public let scale: Double
    /// The canvas in points: its origin in the root layers' space, and its size.
    public let origin: Point
    public let size: Point
    public let background: Color?
    /// Asked before each layer is drawn (a server passes its client's cancellation): once it
    /// says yes, the frame's other layers are skipped and the picture is abandoned.
    public var shouldStop: (@Sendable () -> Bool)?

    /// The radius, in points, of a particle of scale 1 (cells have no images here).
    public static let particleRadius = 4.0

    /// A renderer of a timeline's frames, with a plan of its own.
    /// `canvas` overrides the scene's; without either, the root layers' frames at time 0.
    public init(timeline: Timeline, scale: Double = 1, canvas: Canvas? = nil) {
        self.init(frames: Self.plan(timeline), scale: scale, canvas: canvas)
    }

    /// A plan of every layer's drawn columns, sampled on demand.
    private static func plan(_ timeline: Timeline) -> FramePlan {
        FramePlan(
            timeline: timeline, times: [], selected: [Bool](repeating: true, count: timeline.layers.count),
            columns: FramePlan.drawnColumns(timeline))
    }

    /// A renderer of a timeline's frames on another renderer's stage (its origin, size and
    /// background), whatever this timeline's root layers' frames are: the same scene with some
    /// animations left out, drawn in the same place.
    package init(timeline: Timeline, stageOf other: FrameRenderer) {
        self.init(
            frames: Self.plan(timeline), scale: other.scale, canvas: nil,
            stage: (other.origin, other.size, other.background))
    }

    /// A renderer of a plan's frames (``FramePlan/drawnColumns(_:)`` are what it reads).
    /// `canvas` overrides the scene's; without either, the root layers' frames at time 0.
    public init(frames: FramePlan, scale: Double = 1, canvas: Canvas? = nil) {
        self.init(frames: frames, scale: scale, canvas: canvas, stage: nil)
    }

    private init(
        frames: FramePlan, scale: Double, canvas: Canvas?, stage: (origin: Point, size: Point, background: Color?)?
    ) {
        self.frames = frames
        self.scale = scale
        var slots = [Int32](repeating: -1, count: frames.timeline.layers.count * Self.slotCount)
        // A mask is out of the tree, so the plan's frames do not sample it: its values are read
        // from the timeline (no slots).
        for layer in frames.timeline.layers.indices where frames.timeline.layers[layer].maskOf < 0 {
            for column in frames.columns(of: layer) {
                guard case .keyPath(let keyPath) = frames.column(column).member, keyPath.component == nil,
                    keyPath.property.isDrawn
                else { continue }
                slots[layer * Self.slotCount + keyPath.property.ordinal] = Int32(column)
            }
        }
        self.slots = slots
        var offsets = [Int32](repeating: -1, count: frames.columnCount)
        var total = 0
        for column in 0..<frames.columnCount {
            guard case .keyPath(let keyPath) = frames.column(column).member, keyPath.component == nil else { continue }
            let lanes = keyPath.property.kind.laneCount
            if lanes > 0 {
                offsets[column] = Int32(total)
                total += lanes
            }
        }
        laneOffsets = offsets
        laneTotal = total
        if let stage {
            origin = stage.origin
            size = stage.size
            background = stage.background
        } else if let canvas = canvas ?? frames.timeline.canvas {
            origin = .zero
            size = Point(canvas.width, canvas.height)
            background = canvas.background
        } else {
            let box = Self.rootBox(Frame(frames, layout: (slots, offsets, total), time: 0, cursor: frames.makeCursor()))
            origin = box.origin
            size = box.size
            background = nil
        }
    }

    /// The canvas in pixels.
    public var pixelWidth: Int { max(1, Int((size.x * scale).rounded(.up))) }
    public var pixelHeight: Int { max(1, Int((size.y * scale).rounded(.up))) }

    /// The frame at scene time `time`, drawn on a new canvas.
    public func draw(at time: Double) -> CairoCanvas {
        let canvas = CairoCanvas(width: pixelWidth, height: pixelHeight)
        draw(at: time, on: canvas)
        return canvas
    }

    /// The frame at `time` drawn over what `canvas` holds.
    public func draw(at time: Double, on canvas: CairoCanvas) {
        if let background { canvas.paint(background) }
        let frame = Frame(self, time: time, cursor: frames.makeCursor())
        let base = Homography.translation(-origin.x, -origin.y).then(.scale(scale))
        for root in frame.roots { draw(root, frame: frame, toCanvas: base, canvas: canvas) }
    }

    /// The first index of each run of consecutive `times` whose frames draw alike: the same
    /// layers in the same tree, every sampled value the same to the bit, and no transition or
    /// particles (which draw from more than the values). Sampling only, nothing drawn; nil when
    /// stopped.
    public func runsDrawingAlike(_ times: [Double]) -> [Int]? {
        var runs: [Int] = []
        var previous: Frame?
        let cursor = frames.makeCursor()
        // A mask's values are not in a frame's tables (it is out of the tree): a scene with
        // masks draws every frame.
        let masks = frames.timeline.layers.contains { $0.mask >= 0 }
        for (index, time) in times.enumerated() {
            if let shouldStop, shouldStop() { return nil }
            if masks {
                runs.append(index)
                continue
            }
            let frame = Frame(self, time: time, cursor: cursor)
            if let previous, Frame.drawsAlike(previous, frame) { continue }
            runs.append(index)
            previous = frame
        }
        return runs
    }

    /// The axis-aligned box of the root layers' frames at time 0 (at least 1 × 1 point).
    static func rootBox(_ frame: Frame) -> Rect {
        var low = Point(Double.infinity, Double.infinity)
        var high = Point(-Double.infinity, -Double.infinity)
        for root in frame.roots {
            let layer = frame.layer(root)
            let toParent = layer.toParent()
            for corner in layer.corners {
                guard let p = toParent.apply(corner) else { continue }
                low = Point(min(low.x, p.x), min(low.y, p.y))
                high = Point(max(high.x, p.x), max(high.y, p.y))
            }
        }
        guard low.x.isFinite, low.y.isFinite, high.x.isFinite, high.y.isFinite else {
            return Rect(x: 0, y: 0, width: 1, height: 1)
        }
        let side = 8_192.0
        return Rect(
            origin: low, size: Point(min(side, max(1, high.x - low.x)), min(side, max(1, high.y - low.y))))
    }

    /// A `CATransition` in effect draws both faces of the layer: the outgoing one as the layer
    /// was just before the transition was added, the incoming one as it is, each with its
    /// alpha, offset, turn and curl (``TransitionState``).
    private func draw(
        _ index: Int, frame: Frame, toCanvas parentMap: Homography, canvas: CairoCanvas, face: Face? = nil,
        placedAs placement: PresentedLayer? = nil
    ) {
        if let shouldStop, shouldStop() { return }
        let layer = frame.layer(index)
        guard !layer.hidden, layer.opacity > 0 else { return }
        if face == nil, let state = frame.transitions[index] {
            let before = Frame(self, time: state.begunAt - MediaTiming.resolution, cursor: frame.cursor)
            let faces = [
                (
                    before,
                    Face(state.outgoingOpacity, state.outgoingOffset, state.outgoingTransform, state.outgoingCurl)
                ),
                (frame, Face(state.incomingOpacity, state.incomingOffset, state.incomingTransform, state.incomingCurl)),
            ]
            // Two translucent faces dissolve into each other (summed in a group of their own, so
            // the layer stays opaque where both faces are); otherwise the incoming is drawn over.
            let dissolve = faces.allSatisfy { $0.1.alpha < 1 }
            canvas.beginGroup()
            for (faceFrame, face) in faces where face.alpha > 0 {
                canvas.beginGroup()
                // Both faces take the layer's geometry now: a transition animates the layer's
                // content, while its transform and position keep applying (the outgoing face
                // was drawn as the layer stood when the transition began).
                draw(index, frame: faceFrame, toCanvas: parentMap, canvas: canvas, face: face, placedAs: layer)
                canvas.endGroup(alpha: min(1, face.alpha), adding: dissolve)
            }
            canvas.endGroup(alpha: 1)
            return
        }
        var local = Homography.translation(0, 0)
        if let face {
            let b = layer.bounds
            let center = Point(b.origin.x + b.size.x / 2, b.origin.y + b.size.y / 2)
            local = Homography.translation(-center.x, -center.y).then(Homography(face.transform))
                .then(.translation(center.x + face.offset.x, center.y + face.offset.y))
        }
        let toCanvas = local.then((placement ?? layer).toParent()).then(parentMap)
        if let face, face.curl > 0 {
            // A curl lifts the face from its bottom edge: what has curled away is not drawn,
            // and the fold is a light band along the edge still flat.
            guard let affine = toCanvas.affine ?? toCanvas.affineThrough(layer.corners),
                CairoCanvas.invertible(affine)
            else { return }
            let b = layer.bounds
            let flat = b.size.y * (1 - min(1, face.curl))
            canvas.save()
            canvas.setTransform(affine)
            canvas.newPath()
            canvas.roundedRect(Rect(x: b.origin.x, y: b.origin.y, width: b.size.x, height: flat), radius: 0)
            canvas.clip()
            drawLayer(index, layer: layer, frame: frame, toCanvas: toCanvas, canvas: canvas)
            canvas.setTransform(affine)
            canvas.newPath()
            let band = min(flat, b.size.y * min(1, face.curl) / 2)
            canvas.roundedRect(
                Rect(x: b.origin.x, y: b.origin.y + flat - band, width: b.size.x, height: band), radius: 0)
            canvas.setColor(Color(red: 0.92, green: 0.92, blue: 0.92, alpha: 1))
            canvas.fill()
            canvas.restore()
            return
        }
        drawLayer(index, layer: layer, frame: frame, toCanvas: toCanvas, canvas: canvas)
    }

    /// Beyond this many pixels from the canvas's origin, geometry is clipped before drawing.
    static let hugePixels = 1_000_000.0

    /// The background and border of a layer whose corners lie far outside any canvas, as
    /// polygons cut to the canvas (and a margin) in pixels.
    private func drawHuge(_ layer: PresentedLayer, affine: Affine, fade: Double, canvas: CairoCanvas) {
        let box = Rect(x: -64, y: -64, width: Double(canvas.width) + 128, height: Double(canvas.height) + 128)
        let b = layer.bounds
        let outer = layer.corners.map { affine.apply($0) }
        canvas.save()
        canvas.setTransform(.identity)
        if layer.background.alpha > 0 {
            canvas.newPath()
            canvas.polygon(PolygonClip.clip(outer, to: box))
            canvas.setColor(layer.background, alpha: fade)
            canvas.fill()
        }
        if layer.borderWidth > 0 && layer.borderColor.alpha > 0 {
            let w = min(layer.borderWidth, min(abs(b.size.x), abs(b.size.y)) / 2)
            let inner = [
                Point(b.origin.x + w, b.origin.y + w), Point(b.origin.x + b.size.x - w, b.origin.y + w),
                Point(b.origin.x + b.size.x - w, b.origin.y + b.size.y - w),
                Point(b.origin.x + w, b.origin.y + b.size.y - w),
            ].map { affine.apply($0) }
            canvas.newPath()
            canvas.polygon(PolygonClip.clip(outer, to: box))
            canvas.polygon(PolygonClip.clip(inner, to: box))
            canvas.setColor(layer.borderColor)
            canvas.fillEvenOdd()
        }
        canvas.restore()
    }

    /// One face of a transition: its alpha, offset (points), 3-D turn about the layer's centre
    /// and how much of it has curled away.
    struct Face {
        let alpha: Double
        let offset: Point
        let transform: Transform3D
        let curl: Double

        init(_ alpha: Double, _ offset: Point, _ transform: Transform3D, _ curl: Double) {
            self.alpha = alpha
            self.offset = offset
            self.transform = transform
            self.curl = curl
        }
    }

    private func drawLayer(
        _ index: Int, layer: PresentedLayer, frame: Frame, toCanvas: Homography, canvas: CairoCanvas
    ) {
        let projected = toCanvas.affine
        let affine = projected ?? toCanvas.affineThrough(layer.corners)
        guard let affine, CairoCanvas.invertible(affine) else { return }
        // `CALayer.mask`: the layer and its sublayers in a group, shown through the mask's alpha
        // (the mask drawn in the layer's space). Unmasked when the timeline's leaves are gone
        // (the mask's values are read from them).
        let mask = frame.frames.timeline.layers[index].mask
        let masked = mask >= 0 && !frame.frames.timeline.leavesReleased
        if masked {
            canvas.save()
            canvas.beginGroup()
        }
        defer {
            if masked {
                canvas.beginGroup()
                let masking = frame.layer(mask)
                drawLayer(
                    mask, layer: masking, frame: frame, toCanvas: masking.toParent().then(toCanvas), canvas: canvas)
                canvas.endGroupMasked()
                canvas.restore()
            }
        }
        let children = frame.children(of: index)
        let hasShadow = layer.shadowOpacity > 0 && layer.shadowColor.alpha > 0
        let hasBorder = layer.borderWidth > 0 && layer.borderColor.alpha > 0
        // Opacity composites the layer and its sublayers as one group; a layer that draws only
        // its background needs no group: the background's alpha is multiplied instead (the
        // same pixels, without an intermediate canvas).
        // A blur (SwiftUI's `blur(radius:)`) blurs the layer and its sublayers as one group too.
        let blur = layer.blurRadius
        let alone = children.isEmpty && !hasShadow && !hasBorder && layer.type == .layer && blur == 0
        let group = (layer.opacity < 1 || blur > 0) && !alone
        let fade = group ? 1 : layer.opacity
        if group {
            canvas.save()
            // A group's canvas covers what the layer can draw, not the whole picture: its
            // bounds with the border and shadow, when no sublayer can reach beyond them.
            if children.isEmpty || layer.masksToBounds {
                var margin = layer.borderWidth + 3 * blur
                if hasShadow {
                    margin += layer.shadowRadius * 3 + max(abs(layer.shadowOffset.x), abs(layer.shadowOffset.y))
                }
                let b = layer.bounds
                let corners = [
                    Point(b.origin.x - margin, b.origin.y - margin),
                    Point(b.origin.x + b.size.x + margin, b.origin.y - margin),
                    Point(b.origin.x + b.size.x + margin, b.origin.y + b.size.y + margin),
                    Point(b.origin.x - margin, b.origin.y + b.size.y + margin),
                ].map { affine.apply($0) }
                let xs = corners.map(\.x)
                let ys = corners.map(\.y)
                let left = (xs.min() ?? 0).rounded(.down) - 2
                let top = (ys.min() ?? 0).rounded(.down) - 2
                canvas.clipPixels(
                    x: left, y: top, width: (xs.max() ?? 0).rounded(.up) + 2 - left,
                    height: (ys.max() ?? 0).rounded(.up) + 2 - top)
            }
            canvas.beginGroup()
        }
        canvas.save()
        canvas.setTransform(affine)
        let bounds = layer.bounds
        // Shadow of the layer's shape: its background, or its path for shape layers.
        if hasShadow {
            canvas.newPath()
            if layer.type == .shape, let path = layer.path {
                canvas.path(path)
            } else if layer.background.alpha > 0 {
                canvas.roundedRect(bounds, radius: layer.cornerRadius)
            }
            let offset = Point(
                affine.a * layer.shadowOffset.x + affine.c * layer.shadowOffset.y,
                affine.b * layer.shadowOffset.x + affine.d * layer.shadowOffset.y)
            let pixels = (abs(affine.a * affine.d - affine.b * affine.c)).squareRoot()
            canvas.shadow(
                color: layer.shadowColor, alpha: layer.shadowOpacity, offset: offset,
                radius: layer.shadowRadius * pixels)
        }
        // Geometry millions of pixels across is cut to the canvas first (corners that far out
        // are never seen: the layer is drawn square).
        let device = layer.corners.map { affine.apply($0) }
        let huge = device.contains { abs($0.x) > Self.hugePixels || abs($0.y) > Self.hugePixels }
        if huge {
            drawHuge(layer, affine: affine, fade: fade, canvas: canvas)
        } else if layer.background.alpha > 0 {
            canvas.newPath()
            if projected == nil {
                // A perspective quad: drawn with its projected corners.
                canvas.save()
                canvas.setTransform(.identity)
                canvas.polygon(layer.corners.compactMap { toCanvas.apply($0) })
                canvas.restore()
            } else {
                canvas.roundedRect(bounds, radius: layer.cornerRadius)
            }
            canvas.setColor(layer.background, alpha: fade)
            canvas.fill()
        }
        drawContent(layer, frame: frame, canvas: canvas)
        canvas.restore()
        // Sublayers, clipped to the rounded bounds with masksToBounds.
        if !children.isEmpty {
            canvas.save()
            if layer.masksToBounds {
                canvas.setTransform(affine)
                canvas.newPath()
                canvas.roundedRect(bounds, radius: layer.cornerRadius)
                canvas.clip()
            }
            // The sublayers' space: this layer's, turned by its sublayerTransform (once for all).
            let sublayers = layer.sublayerMap.map { $0.then(toCanvas) } ?? toCanvas
            for child in children { draw(child, frame: frame, toCanvas: sublayers, canvas: canvas) }
            canvas.restore()
        }
        // The border, inside the bounds and over the sublayers.
        if hasBorder && !huge {
            canvas.save()
            canvas.setTransform(affine)
            canvas.newPath()
            let inset = min(layer.borderWidth / 2, min(abs(bounds.size.x), abs(bounds.size.y)) / 2)
            canvas.roundedRect(
                Rect(
                    x: bounds.origin.x + inset, y: bounds.origin.y + inset, width: bounds.size.x - 2 * inset,
                    height: bounds.size.y - 2 * inset), radius: max(0, layer.cornerRadius - inset))
            canvas.setColor(layer.borderColor)
            canvas.stroke(width: layer.borderWidth, cap: "butt", join: "miter")
            canvas.restore()
        }
        if group {
            if blur > 0 {
                let pixels = (abs(affine.a * affine.d - affine.b * affine.c)).squareRoot()
                canvas.endGroup(alpha: layer.opacity, blur: blur * pixels)
            } else {
                canvas.endGroup(alpha: layer.opacity)
            }
            canvas.restore()
        }
    }

    private func drawContent(_ layer: PresentedLayer, frame: Frame, canvas: CairoCanvas) {
        switch layer.type {
        case .shape:
            guard let path = layer.path, !path.isEmpty else { return }
            let fill = layer.color(.fillColor)
            if fill.alpha > 0 {
                canvas.newPath()
                canvas.path(path)
                canvas.setColor(fill)
                canvas.fill()
            }
            let stroke = layer.color(.strokeColor)
            let width = layer.number(.lineWidth)
            let start = max(0, min(1, layer.number(.strokeStart)))
            let end = max(0, min(1, layer.number(.strokeEnd)))
            if stroke.alpha > 0, width > 0, end > start {
                canvas.newPath()
                canvas.path(start <= 0 && end >= 1 ? path : PathTrim.trim(path, from: start, to: end))
                canvas.setColor(stroke)
                canvas.stroke(
                    width: width, cap: layer.string(.lineCap) ?? "butt", join: layer.string(.lineJoin) ?? "miter")
            }
        case .text:
            guard let string = layer.string(.string) else { return }
            // The text is laid out in the layer's backing store: what falls outside its bounds
            // is not drawn.
            canvas.newPath()
            canvas.roundedRect(layer.bounds, radius: 0)
            canvas.clip()
            canvas.text(
                string, fontSize: layer.number(.fontSize), width: layer.bounds.size.x,
                alignment: layer.string(.alignmentMode) ?? "natural", color: layer.color(.foregroundColor))
        case .emitter:
            for particle in frame.particles[layer.index] ?? [] where particle.color.alpha > 0 && particle.scale > 0 {
                canvas.newPath()
                canvas.circle(particle.position, radius: Self.particleRadius * particle.scale)
                canvas.setColor(particle.color)
                canvas.fill()
            }
        default:
            break
        }
    }
}

/// One frame's tree and values, read through the renderer's plan: the shape at the time, each
/// layer's time map, the values of its drawn properties, its transition and particles, and its
/// children in drawing order (zPosition among siblings, then insertion order).
final class Frame {
    let frames: FramePlan
    let slots: [Int32]
    let laneOffsets: [Int32]
    let time: Double
    let shape: Timeline.TreeShape
    let maps: [TimeMap]
    /// The compiled columns' lanes at the time (at each column's ``FrameRenderer/laneOffsets``).
    let lanes: [Double]
    /// The values read from the timeline (booleans, strings, paths, and what the program
    /// leaves generic), by column.
    let generic: [Value?]
    /// The `CATransition`s in effect, by layer.
    let transitions: [Int: TransitionState]
    /// An emitter's live particles, by layer.
    let particles: [Int: [Particle]]
    /// The thread's sampling cursor, for a transition's outgoing face at another time.
    let cursor: SamplingCursor
    private(set) var roots: [Int]
    private var childLists: [Int: [Int]]

    /// What a ``FramePlan`` hands out for one frame: lanes as they are, values as values.
    struct Table: FrameVisitor {
        let offsets: [Int32]
        var lanes: [Double]
        var generic: [Value?]
        var transitions: [Int: TransitionState] = [:]
        var particles: [Int: [Particle]] = [:]
        var layer = 0

        mutating func beginLayer(_ layer: Int) { self.layer = layer }
        mutating func lanes(_ column: Int, _ keyPath: KeyPath, _ values: UnsafePointer<Double>) {
            let offset = Int(offsets[column])
            guard offset >= 0 else {
                generic[column] = Value(lanes: values, kind: keyPath.property.kind)
                return
            }
            for lane in 0..<keyPath.property.kind.laneCount { lanes[offset + lane] = values[lane] }
        }
        mutating func value(_ column: Int, _ keyPath: KeyPath, _ value: Value) { generic[column] = value }
        mutating func transition(_ column: Int, _ state: TransitionState) { transitions[layer] = state }
        mutating func particles(_ column: Int, _ particles: [Particle]) { self.particles[layer] = particles }
        mutating func endLayer(_ layer: Int) {}
    }

    convenience init(_ renderer: FrameRenderer, time: Double, cursor: SamplingCursor) {
        self.init(
            renderer.frames, layout: (renderer.slots, renderer.laneOffsets, renderer.laneTotal), time: time,
            cursor: cursor)
    }

    init(
        _ frames: FramePlan, layout: (slots: [Int32], laneOffsets: [Int32], laneTotal: Int), time: Double,
        cursor: SamplingCursor
    ) {
        self.frames = frames
        slots = layout.slots
        laneOffsets = layout.laneOffsets
        self.time = time
        self.cursor = cursor
        let (shape, maps) = frames.frameState(at: time)
        var table = Table(
            offsets: layout.laneOffsets, lanes: [Double](repeating: 0, count: layout.laneTotal),
            generic: [Value?](repeating: nil, count: frames.columnCount))
        frames.visit(time, shape: shape, maps: maps, cursor: cursor, &table)
        self.shape = shape
        self.maps = maps
        lanes = table.lanes
        generic = table.generic
        transitions = table.transitions
        particles = table.particles
        var lists: [Int: [Int]] = [:]
        var roots: [Int] = []
        for index in shape.order {
            let parent = shape.parent[index]
            if parent >= 0 { lists[parent, default: []].append(index) } else { roots.append(index) }
        }
        self.roots = roots
        childLists = lists
        // Siblings in drawing order: zPosition, then insertion order.
        func sorted(_ list: [Int]) -> [Int] {
            let keyed = list.enumerated().map {
                (offset: $0.offset, index: $0.element, z: number($0.element, .zPosition))
            }
            return keyed.sorted { $0.z != $1.z ? $0.z < $1.z : $0.offset < $1.offset }.map(\.index)
        }
        self.roots = sorted(roots)
        childLists = lists.mapValues(sorted)
    }

    func children(of index: Int) -> [Int] { childLists[index] ?? [] }

    /// Whether `a` and `b` draw the same pixels: drawing reads nothing of a frame but its tree,
    /// its lanes and values, and — at other times than its own — its transitions and
    /// particles, which therefore never count as alike.
    static func drawsAlike(_ a: Frame, _ b: Frame) -> Bool {
        guard a.transitions.isEmpty, b.transitions.isEmpty, a.particles.isEmpty, b.particles.isEmpty,
            a.shape.order == b.shape.order, a.shape.parent == b.shape.parent, a.roots == b.roots,
            a.lanes.count == b.lanes.count, a.generic == b.generic
        else { return false }
        for index in a.lanes.indices where a.lanes[index].bitPattern != b.lanes[index].bitPattern { return false }
        return true
    }

    func layer(_ index: Int) -> PresentedLayer { PresentedLayer(frame: self, index: index) }

    /// Where a layer's property lies in the tables: its lanes' offset, or −1 with its column
    /// (−1: the plan has none).
    @inline(__always)
    private func place(_ index: Int, _ property: LayerProperty) -> (lanes: Int, column: Int) {
        guard property.isDrawn else { return (-1, -1) }
        let column = Int(slots[index * FrameRenderer.slotCount + property.ordinal])
        guard column >= 0, generic[column] == nil else { return (-1, column) }
        return (Int(laneOffsets[column]), column)
    }

    /// A layer's property at the frame's time: the plan's value, or the timeline's.
    func value(_ index: Int, _ property: LayerProperty) -> Value {
        let (offset, column) = place(index, property)
        if offset >= 0 {
            return lanes.withUnsafeBufferPointer { Value(lanes: $0.baseAddress! + offset, kind: property.kind) }
        }
        if column >= 0, let value = generic[column] { return value }
        return frames.timeline.presentationValue(layer: index, keyPath: KeyPath(property), at: time, map: maps[index])
    }

    /// A number property, 0 unless finite.
    func number(_ index: Int, _ property: LayerProperty) -> Double {
        let offset = place(index, property).lanes
        if offset >= 0 { return lanes[offset].isFinite ? lanes[offset] : 0 }
        if case .number(let n) = value(index, property), n.isFinite { return n }
        return 0
    }

    /// A colour property, clear unless a colour.
    func color(_ index: Int, _ property: LayerProperty) -> Color {
        let offset = place(index, property).lanes
        if offset >= 0 {
            return Color(
                red: lanes[offset], green: lanes[offset + 1], blue: lanes[offset + 2], alpha: lanes[offset + 3])
        }
        if case .color(let c) = value(index, property) { return c }
        return .clear
    }

    /// A point or size property, zero unless one.
    func point(_ index: Int, _ property: LayerProperty) -> Point {
        let offset = place(index, property).lanes
        if offset >= 0 { return Point(lanes[offset], lanes[offset + 1]) }
        switch value(index, property) {
        case .point(let p), .size(let p): return p
        default: return .zero
        }
    }

    /// A rectangle property, zero unless one.
    func rect(_ index: Int, _ property: LayerProperty) -> Rect {
        let offset = place(index, property).lanes
        if offset >= 0 {
            return Rect(x: lanes[offset], y: lanes[offset + 1], width: lanes[offset + 2], height: lanes[offset + 3])
        }
        if case .rect(let r) = value(index, property) { return r }
        return .zero
    }

    /// A transform property, the identity unless one.
    func transform(_ index: Int, _ property: LayerProperty) -> Transform3D {
        let offset = place(index, property).lanes
        if offset >= 0 {
            return lanes.withUnsafeBufferPointer { buffer in
                guard case .transform(let t) = Value(lanes: buffer.baseAddress! + offset, kind: .transform) else {
                    return .identity
                }
                return t
            }
        }
        if case .transform(let t) = value(index, property) { return t }
        return .identity
    }
}

/// One layer's presentation values at a time.
struct PresentedLayer {
    let frame: Frame
    let index: Int

    var type: LayerType { frame.frames.timeline.layers[index].type }

    func value(_ property: LayerProperty) -> Value { frame.value(index, property) }

    func number(_ property: LayerProperty) -> Double { frame.number(index, property) }

    func color(_ property: LayerProperty) -> Color { frame.color(index, property) }

    func string(_ property: LayerProperty) -> String? {
        if case .string(let s) = value(property) { return s }
        return nil
    }

    func transform(_ property: LayerProperty) -> Transform3D { frame.transform(index, property) }

    var bounds: Rect { frame.rect(index, .bounds) }

    var hidden: Bool {
        if case .bool(let b) = value(.hidden) { return b }
        return false
    }

    var masksToBounds: Bool {
        if case .bool(let b) = value(.masksToBounds) { return b }
        return false
    }

    var opacity: Double { max(0, min(1, number(.opacity))) }
    var background: Color { color(.backgroundColor) }
    var cornerRadius: Double { number(.cornerRadius) }
    var borderWidth: Double { number(.borderWidth) }
    var borderColor: Color { color(.borderColor) }
    var shadowOpacity: Double { max(0, min(1, number(.shadowOpacity))) }
    var shadowColor: Color { color(.shadowColor) }
    var shadowRadius: Double { max(0, number(.shadowRadius)) }
    /// Points, at most 1,000 (a blur wider than any picture draws nothing more).
    var blurRadius: Double { max(0, min(number(.blurRadius), 1000)) }

    var shadowOffset: Point { frame.point(index, .shadowOffset) }

    var path: BezierPath? {
        if case .path(let p) = value(.path) { return p }
        return nil
    }

    func point(_ property: LayerProperty) -> Point { frame.point(index, property) }

    /// The anchor point in the layer's own (bounds) coordinates.
    var anchorOffset: Point {
        let b = bounds
        let a = point(.anchorPoint)
        return Point(b.origin.x + a.x * b.size.x, b.origin.y + a.y * b.size.y)
    }

    var corners: [Point] {
        let b = bounds
        return [
            b.origin, Point(b.origin.x + b.size.x, b.origin.y),
            Point(b.origin.x + b.size.x, b.origin.y + b.size.y), Point(b.origin.x, b.origin.y + b.size.y),
        ]
    }

    /// Layer coordinates → the parent's sublayer space: about the anchor point by `transform`,
    /// to `position`, flattened into the parent's plane as Core Animation does for every layer
    /// but `CATransformLayer`.
    func toParent() -> Homography {
        let anchor = anchorOffset
        let position = point(.position)
        return Homography.translation(-anchor.x, -anchor.y)
            .then(Homography(transform(.transform)))
            .then(.translation(position.x, position.y))
    }

    /// The sublayers' space → this layer's: `sublayerTransform` about the anchor point; nil
    /// when it is the identity.
    var sublayerMap: Homography? {
        let turn = transform(.sublayerTransform)
        guard turn != .identity else { return nil }
        let anchor = anchorOffset
        return Homography.translation(-anchor.x, -anchor.y).then(Homography(turn))
            .then(.translation(anchor.x, anchor.y))
    }
}

/// A projective map of the plane in row-vector form ((x, y, 1) · M): a `CATransform3D` with
/// its z row and column dropped, which is what flattening a layer into its parent keeps.
struct Homography {
    var m: [Double]  // 3 × 3, row-major

    init(_ m: [Double]) { self.m = m }

    init(_ t: Transform3D) {
        m = [t.m11, t.m12, t.m14, t.m21, t.m22, t.m24, t.m41, t.m42, t.m44]
    }

    static func translation(_ x: Double, _ y: Double) -> Homography { Homography([1, 0, 0, 0, 1, 0, x, y, 1]) }
    static func scale(_ k: Double) -> Homography { Homography([k, 0, 0, 0, k, 0, 0, 0, 1]) }

    /// This map, then `other`.
    func then(_ other: Homography) -> Homography {
        let a = m
        let b = other.m
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 { r[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j] }
        }
        return Homography(r)
    }

    func apply(_ p: Point) -> Point? {
        let w = p.x * m[2] + p.y * m[5] + m[8]
        guard abs(w) > 1e-9 else { return nil }
        return Point((p.x * m[0] + p.y * m[3] + m[6]) / w, (p.x * m[1] + p.y * m[4] + m[7]) / w)
    }

    /// The map as an affine one, when it has no perspective.
    var affine: Affine? {
        guard abs(m[2]) < 1e-12, abs(m[5]) < 1e-12, abs(m[8]) > 1e-12 else { return nil }
        let w = m[8]
        return Affine(a: m[0] / w, b: m[1] / w, c: m[3] / w, d: m[4] / w, tx: m[6] / w, ty: m[7] / w)
    }

    /// The affine map through three projected corners (origin, x-corner, y-corner): content
    /// of a layer seen in perspective, close to its projected quad.
    func affineThrough(_ corners: [Point]) -> Affine? {
        guard corners.count == 4, let p0 = apply(corners[0]), let p1 = apply(corners[1]), let p3 = apply(corners[3])
        else { return nil }
        let w = corners[1].x - corners[0].x
        let h = corners[3].y - corners[0].y
        guard abs(w) > 1e-9, abs(h) > 1e-9 else { return nil }
        let a = (p1.x - p0.x) / w
        let b = (p1.y - p0.y) / w
        let c = (p3.x - p0.x) / h
        let d = (p3.y - p0.y) / h
        return Affine(
            a: a, b: b, c: c, d: d, tx: p0.x - a * corners[0].x - c * corners[0].y,
            ty: p0.y - b * corners[0].x - d * corners[0].y)
    }
}
