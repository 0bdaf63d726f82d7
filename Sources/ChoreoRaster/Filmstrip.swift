import ChoreoEngine

/// Frames side by side in a grid, each with its time written under it: a contact sheet of an
/// animation, the way a motion designer reviews one on paper.
public struct Filmstrip {
    public let renderer: FrameRenderer
    public let times: [Double]
    public let columns: Int
    /// Points under each frame for its time.
    static let label = 18.0
    static let gap = 4.0

    public init(renderer: FrameRenderer, times: [Double], columns: Int) {
        self.renderer = renderer
        self.times = times
        self.columns = max(1, min(columns, max(1, times.count)))
    }

    var rows: Int { (times.count + columns - 1) / columns }
    var cellWidth: Double { renderer.size.x + Self.gap }
    var cellHeight: Double { renderer.size.y + Self.label + Self.gap }

    /// Pixels a point of the label and the gap take: the frames' scale, but never less than 1,
    /// so a sheet drawn at scale 0.25 still has legible times and a gutter between its cells.
    var labelScale: Double { max(renderer.scale, 1) }

    /// A cell in pixels (at scale 1 or more, exactly the cell in points times the scale).
    var cellPixelWidth: Double {
        renderer.scale >= 1 ? cellWidth * renderer.scale : renderer.size.x * renderer.scale + Self.gap * labelScale
    }
    var cellPixelHeight: Double {
        renderer.scale >= 1
            ? cellHeight * renderer.scale
            : renderer.size.y * renderer.scale + (Self.label + Self.gap) * labelScale
    }

    public var pixelWidth: Int { max(1, Int((Double(columns) * cellPixelWidth).rounded(.up))) }
    public var pixelHeight: Int { max(1, Int((Double(rows) * cellPixelHeight).rounded(.up))) }

    /// The sheet: a white background, each frame on its cell, its time in seconds below.
    public func draw() -> CairoCanvas {
        let sheet = CairoCanvas(width: pixelWidth, height: pixelHeight)
        sheet.paint(Color(red: 1, green: 1, blue: 1, alpha: 1))
        let scale = renderer.scale
        let labelScale = labelScale
        for (index, time) in times.enumerated() {
            // At scale 1 or more, the products in the order they always were (the same bits).
            let x = scale >= 1 ? Double(index % columns) * cellWidth * scale : Double(index % columns) * cellPixelWidth
            let y =
                scale >= 1 ? Double(index / columns) * cellHeight * scale : Double(index / columns) * cellPixelHeight
            let frame = renderer.draw(at: time)
            sheet.draw(frame, x: x, y: y)
            sheet.save()
            sheet.setTransform(
                Affine(
                    a: labelScale, b: 0, c: 0, d: labelScale, tx: x, ty: y + renderer.size.y * scale + 2 * labelScale))
            sheet.text(
                Self.format(time) + " s", fontSize: 11, width: scale >= 1 ? renderer.size.x : renderer.size.x * scale,
                alignment: "center", color: Color(red: 0.2, green: 0.2, blue: 0.2, alpha: 1))
            sheet.restore()
        }
        return sheet
    }

    /// A time to the millisecond, without trailing zeros.
    static func format(_ time: Double) -> String {
        let milliseconds = Int((time * 1000).rounded())
        let whole = milliseconds / 1000
        var fraction = String(abs(milliseconds % 1000))
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }
}
