import CCairo
import ChoreoEngine
import ChoreoLibraries

/// A 2-D affine map in Core Graphics' order (`CGAffineTransform`: x' = a·x + c·y + tx,
/// y' = b·x + d·y + ty), as Cairo's `cairo_matrix_t` takes it.
public struct Affine: Sendable, Equatable {
    public var a, b, c, d, tx, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = Affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public func apply(_ p: Point) -> Point { Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty) }
}

/// An ARGB image and its Cairo context: the one place choreo calls Cairo and Pango. What
/// Core Animation's render server does with a layer's backing store, done in software: paths
/// filled and stroked, groups composited with an alpha, clips, text laid out by Pango.
///
/// Not thread-safe: one frame is drawn by one thread.
///
/// Cairo and Pango are loaded with the first canvas, not when choreo starts (``SharedLibrary``):
/// what draws pictures checks ``library`` first, as `PictureService` does.
public final class CairoCanvas {
    /// Cairo and Pango (through libpangocairo, which brings both), loaded once.
    package static let library = SharedLibrary.load(
        "libpangocairo-1.0.so.0", package: "libpangocairo-1.0-0", bind: ccairo_bind)

    public let width: Int
    public let height: Int
    private let surface: OpaquePointer
    private let cr: OpaquePointer

    /// A transparent canvas of `width` × `height` pixels (each at least 1).
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        // Neither returns NULL: a failure is an object in an error state, which draws nothing.
        surface = C.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height))!
        cr = C.cairo_create(surface)!
        C.cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    }

    deinit {
        C.cairo_destroy(cr)
        C.cairo_surface_destroy(surface)
    }

    // MARK: state

    public func save() { C.cairo_save(cr) }
    public func restore() { C.cairo_restore(cr) }

    /// Replaces the current transform (user space → pixels).
    public func setTransform(_ m: Affine) {
        var matrix = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
        C.cairo_set_matrix(cr, &matrix)
        deviceScale = max((m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
    }

    /// Pixels per user-space unit along the longer axis of the current transform.
    private var deviceScale = 1.0

    /// Curves are flattened to 0.1 pixel, Cairo's default, unless the geometry spans more than
    /// 100,000 pixels: then to a millionth of its size, so that a layer scaled by 10^15 costs
    /// the same few hundred segments as any other (its curves lie far outside any canvas).
    private func tolerate(_ extent: Double) {
        let pixels = extent * deviceScale
        C.cairo_set_tolerance(cr, pixels.isFinite ? max(0.1, pixels * 1e-6) : 1e300)
    }

    /// Whether an affine map can be drawn with (Cairo refuses singular matrices).
    public static func invertible(_ m: Affine) -> Bool {
        let det = m.a * m.d - m.b * m.c
        return det.isFinite && abs(det) > 1e-12 && m.tx.isFinite && m.ty.isFinite
    }

    // MARK: paths

    public func newPath() { C.cairo_new_path(cr) }

    /// A rectangle with corners rounded by `radius` (clamped to half the shorter side), as
    /// `CALayer.cornerRadius` draws it (circular corners).
    public func roundedRect(_ r: Rect, radius: Double) {
        let w = r.size.x
        let h = r.size.y
        let radius = max(0, min(radius, min(abs(w), abs(h)) / 2))
        let x = r.origin.x
        let y = r.origin.y
        tolerate(max(abs(x), abs(y), abs(x + w), abs(y + h)))
        if radius <= 0 {
            C.cairo_rectangle(cr, x, y, w, h)
            return
        }
        C.cairo_new_sub_path(cr)
        C.cairo_arc(cr, x + w - radius, y + radius, radius, -Double.pi / 2, 0)
        C.cairo_arc(cr, x + w - radius, y + h - radius, radius, 0, Double.pi / 2)
        C.cairo_arc(cr, x + radius, y + h - radius, radius, Double.pi / 2, Double.pi)
        C.cairo_arc(cr, x + radius, y + radius, radius, Double.pi, 3 * Double.pi / 2)
        C.cairo_close_path(cr)
    }

    /// A polygon through the given points, closed.
    public func polygon(_ points: [Point]) {
        guard let first = points.first else { return }
        C.cairo_move_to(cr, first.x, first.y)
        for p in points.dropFirst() { C.cairo_line_to(cr, p.x, p.y) }
        C.cairo_close_path(cr)
    }

    /// A `CGPath` (quadratic segments raised to cubics).
    public func path(_ path: BezierPath) {
        var extent = 0.0
        for element in path.elements {
            switch element {
            case .move(let p), .line(let p): extent = max(extent, abs(p.x), abs(p.y))
            case .quad(let c, let p): extent = max(extent, abs(p.x), abs(p.y), abs(c.x), abs(c.y))
            case .cubic(let c1, let c2, let p):
                extent = max(extent, abs(p.x), abs(p.y), abs(c1.x), abs(c1.y), abs(c2.x), abs(c2.y))
            case .close: break
            }
        }
        tolerate(extent)
        var current = Point.zero
        var start = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                C.cairo_move_to(cr, p.x, p.y)
                current = p
                start = p
            case .line(let p):
                C.cairo_line_to(cr, p.x, p.y)
                current = p
            // The engine keeps control points first, the end point last (`CGPathElement`).
            case .quad(let c, let p):
                let c1 = current + (c - current) * (2.0 / 3)
                let c2 = p + (c - p) * (2.0 / 3)
                C.cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .cubic(let c1, let c2, let p):
                C.cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                current = p
            case .close:
                C.cairo_close_path(cr)
                current = start
            }
        }
    }

    public func circle(_ center: Point, radius: Double) {
        tolerate(max(abs(center.x), abs(center.y)) + abs(radius))
        C.cairo_new_sub_path(cr)
        C.cairo_arc(cr, center.x, center.y, radius, 0, 2 * Double.pi)
        C.cairo_close_path(cr)
    }

    // MARK: painting

    public func setColor(_ color: Color, alpha: Double = 1) {
        C.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * alpha)
    }

    public func fill(preserve: Bool = false) {
        if preserve { C.cairo_fill_preserve(cr) } else { C.cairo_fill(cr) }
    }

    /// Fills the current path by the even-odd rule (a ring drawn as two polygons).
    public func fillEvenOdd() {
        C.cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        C.cairo_fill(cr)
        C.cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    }

    /// `CAShapeLayer`'s stroke: width, cap (`butt`, `round`, `square`), join (`miter`, `round`,
    /// `bevel`).
    public func stroke(width: Double, cap: String, join: String) {
        C.cairo_set_line_width(cr, width)
        C.cairo_set_line_cap(
            cr, cap == "round" ? CAIRO_LINE_CAP_ROUND : cap == "square" ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
        C.cairo_set_line_join(
            cr,
            join == "round" ? CAIRO_LINE_JOIN_ROUND : join == "bevel" ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
        C.cairo_stroke(cr)
    }

    public func clip() { C.cairo_clip(cr) }

    /// Clips to a rectangle in pixels, whatever the current transform (a group's area).
    public func clipPixels(x: Double, y: Double, width: Double, height: Double) {
        var matrix = cairo_matrix_t()
        C.cairo_get_matrix(cr, &matrix)
        C.cairo_identity_matrix(cr)
        C.cairo_new_path(cr)
        C.cairo_rectangle(cr, x, y, width, height)
        C.cairo_clip(cr)
        C.cairo_set_matrix(cr, &matrix)
    }

    /// Fills the whole canvas (the current clip) with a colour.
    public func paint(_ color: Color) {
        setColor(color)
        C.cairo_paint(cr)
    }

    /// Starts a group: what is drawn until ``endGroup(alpha:)`` is composited as one, as
    /// `CALayer.opacity` applies to a layer and its sublayers together.
    public func beginGroup() { C.cairo_push_group(cr) }

    /// Composites the group over what is below; `adding`, summed with it instead (a
    /// cross-dissolve of two faces that together stay opaque).
    public func endGroup(alpha: Double, adding: Bool = false) {
        C.cairo_pop_group_to_source(cr)
        if adding { C.cairo_set_operator(cr, CAIRO_OPERATOR_ADD) }
        C.cairo_paint_with_alpha(cr, alpha)
        if adding { C.cairo_set_operator(cr, CAIRO_OPERATOR_OVER) }
    }

    /// Ends two groups begun one inside the other: the inner one's alpha masks the outer one,
    /// which is then composited over what is below (`CALayer.mask`: the layer and its
    /// sublayers show where the mask layer is opaque).
    public func endGroupMasked() {
        guard let mask = C.cairo_pop_group(cr) else {
            endGroup(alpha: 1)
            return
        }
        defer { C.cairo_pattern_destroy(mask) }
        C.cairo_pop_group_to_source(cr)
        C.cairo_mask(cr, mask)
    }

    /// Composites the group blurred by `radius` pixels — three box passes over each channel,
    /// within a few percent of a Gaussian, as shadows are blurred — then at `alpha`: SwiftUI's
    /// `blur(radius:)`, which blurs a view and its subviews together.
    public func endGroup(alpha: Double, blur radius: Double) {
        let target = C.cairo_get_group_target(cr)
        if radius > 0, let target {
            C.cairo_surface_flush(target)
            let width = Int(C.cairo_image_surface_get_width(target))
            let height = Int(C.cairo_image_surface_get_height(target))
            let stride = Int(C.cairo_image_surface_get_stride(target))
            // Not an image surface: no pixels to blur (the group is drawn sharp).
            if let data = C.cairo_image_surface_get_data(target), width > 0, height > 0 {
                for channel in 0..<4 {
                    BoxBlur.blur(data + channel, width: width, height: height, stride: stride, radius: radius, step: 4)
                }
                C.cairo_surface_mark_dirty(target)
            }
        }
        endGroup(alpha: alpha)
    }

    /// A blurred shadow of a shape: the current path, filled into a mask that is blurred by
    /// `radius` pixels (three box passes, close to Core Animation's Gaussian), then painted in
    /// `color` at `offset` pixels. The path is consumed.
    public func shadow(color: Color, alpha: Double, offset: Point, radius: Double) {
        var x1 = 0.0
        var y1 = 0.0
        var x2 = 0.0
        var y2 = 0.0
        C.cairo_save(cr)
        C.cairo_identity_matrix(cr)
        C.cairo_restore(cr)
        C.cairo_fill_extents(cr, &x1, &y1, &x2, &y2)
        // Extents in user space: map to pixels through the current matrix.
        var matrix = cairo_matrix_t()
        C.cairo_get_matrix(cr, &matrix)
        let corners = [(x1, y1), (x2, y1), (x1, y2), (x2, y2)].map { (x, y) in
            (matrix.xx * x + matrix.xy * y + matrix.x0, matrix.yx * x + matrix.yy * y + matrix.y0)
        }
        // The mask covers the shape and its blur, cut to the canvas and what can blur into it;
        // a radius or a shape beyond any canvas (1e300) draws no shadow rather than overflow.
        let blur = radius.isFinite ? max(0, radius) : .infinity
        let reach = 2 * blur + 2 + max(abs(offset.x), abs(offset.y))
        let xs = corners.map(\.0)
        let ys = corners.map(\.1)
        guard blur <= 4096, reach <= 1_000_000, (xs + ys).allSatisfy(\.isFinite) else {
            C.cairo_new_path(cr)
            return
        }
        let minX = max((xs.min() ?? 0) - reach, -reach - 2 * Double(width))
        let minY = max((ys.min() ?? 0) - reach, -reach - 2 * Double(height))
        let maxX = min((xs.max() ?? 0) + reach, reach + 3 * Double(width))
        let maxY = min((ys.max() ?? 0) + reach, reach + 3 * Double(height))
        guard maxX > minX, maxY > minY else {
            C.cairo_new_path(cr)
            return
        }
        let left = Int(minX.rounded(.down))
        let top = Int(minY.rounded(.down))
        let w = Int(maxX.rounded(.up)) - left
        let h = Int(maxY.rounded(.up)) - top
        guard w > 0, h > 0, w * h <= 64 << 20 else {
            C.cairo_new_path(cr)
            return
        }
        let mask = C.cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(w), Int32(h))!
        defer { C.cairo_surface_destroy(mask) }
        let mcr = C.cairo_create(mask)!
        var shifted = matrix
        shifted.x0 -= Double(left)
        shifted.y0 -= Double(top)
        C.cairo_set_matrix(mcr, &shifted)
        let path = C.cairo_copy_path(cr)
        C.cairo_append_path(mcr, path)
        C.cairo_path_destroy(path)
        C.cairo_set_fill_rule(mcr, CAIRO_FILL_RULE_WINDING)
        C.cairo_fill(mcr)
        C.cairo_destroy(mcr)
        C.cairo_new_path(cr)
        C.cairo_surface_flush(mask)
        let stride = Int(C.cairo_image_surface_get_stride(mask))
        if let data = C.cairo_image_surface_get_data(mask) {
            BoxBlur.blur(data, width: w, height: h, stride: stride, radius: radius)
        }
        C.cairo_surface_mark_dirty(mask)
        C.cairo_save(cr)
        C.cairo_identity_matrix(cr)
        C.cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * alpha)
        C.cairo_mask_surface(cr, mask, Double(left) + offset.x, Double(top) + offset.y)
        C.cairo_restore(cr)
    }

    /// The faces text is set in, in order: DejaVu Sans for Latin, Greek and Cyrillic, Noto Sans
    /// CJK for Chinese, Japanese and Korean (the articles' strings); fontconfig falls back to
    /// any other installed face after them, and Pango sets emoji (the arena's crown, 👑) in
    /// Noto Color Emoji from there. Naming the emoji face in the list made Pango set plain
    /// digits in it too ("2 days left" drew a grey, wide "2"), since digits are emoji
    /// characters as well.
    static let fontFamilies = "DejaVu Sans, Noto Sans CJK SC"

    /// `CATextLayer`'s text: `string` in `fontSize` points of the system sans face, wrapped to
    /// `width`, aligned `left`, `center`, `right` or `justified` (`natural` is left).
    public func text(_ string: String, fontSize: Double, width: Double, alignment: String, color: Color) {
        guard let layout = layout(string, fontSize: fontSize, width: width, alignment: alignment) else { return }
        defer { C.g_object_unref(UnsafeMutableRawPointer(layout)) }
        setColor(color)
        C.cairo_move_to(cr, 0, 0)
        C.pango_cairo_show_layout(cr, layout)
    }

    /// The outlines of the glyphs ``text(_:fontSize:width:alignment:color:)`` draws, in the
    /// layer's coordinates: what an exporter draws where its player has no fonts (colour emoji,
    /// which are pictures, have none).
    ///
    /// `linear` is the 2 × 2 part of the layer's map to the picture's pixels (xx, yx, xy, yy):
    /// Pango lays text out under it as the picture does (its advances rounded to the pixels it
    /// draws in, not to points), and the outline comes back in the layer's coordinates.
    package static func textOutline(
        _ string: String, fontSize: Double, width: Double, alignment: String,
        linear: (Double, Double, Double, Double) = (1, 0, 0, 1)
    ) -> BezierPath {
        let canvas = CairoCanvas(width: 1, height: 1)
        let cr = canvas.cr
        let determinant = linear.0 * linear.3 - linear.1 * linear.2
        if determinant.isFinite && abs(determinant) > 1e-12 {
            var matrix = cairo_matrix_t(xx: linear.0, yx: linear.1, xy: linear.2, yy: linear.3, x0: 0, y0: 0)
            C.cairo_set_matrix(cr, &matrix)
        }
        guard let layout = canvas.layout(string, fontSize: fontSize, width: width, alignment: alignment) else {
            return BezierPath()
        }
        defer { C.g_object_unref(UnsafeMutableRawPointer(layout)) }
        C.cairo_new_path(cr)
        C.cairo_move_to(cr, 0, 0)
        C.pango_cairo_layout_path(cr, layout)
        guard let copied = C.cairo_copy_path(cr) else { return BezierPath() }
        defer { C.cairo_path_destroy(copied) }
        var path = BezierPath()
        let count = Int(copied.pointee.num_data)
        guard let data = copied.pointee.data else { return path }
        var index = 0
        while index < count {
            let header = data[index].header
            let length = max(1, Int(header.length))
            func point(_ offset: Int) -> Point { Point(data[index + offset].point.x, data[index + offset].point.y) }
            switch header.type {
            case CAIRO_PATH_MOVE_TO: path.move(to: point(1))
            case CAIRO_PATH_LINE_TO: path.line(to: point(1))
            case CAIRO_PATH_CURVE_TO: path.cubic(to: point(3), control1: point(1), control2: point(2))
            case CAIRO_PATH_CLOSE_PATH: path.close()
            default: break
            }
            index += length
        }
        C.cairo_new_path(cr)
        return path
    }

    /// The lines ``text(_:fontSize:width:alignment:color:)`` sets `string` in, in the layer's
    /// coordinates: each line's characters, where it starts (its alignment included), its
    /// baseline and where each of its characters (Unicode scalars) starts, laid out under
    /// `linear` as ``textOutline(_:fontSize:width:alignment:linear:)`` lays them out. What a
    /// browser needs to break and place the lines and glyphs where the picture does (Pango
    /// rounds the advances to the pixels it draws in, a browser need not).
    package static func textLines(
        _ string: String, fontSize: Double, width: Double, alignment: String,
        linear: (Double, Double, Double, Double) = (1, 0, 0, 1)
    ) -> [(text: String, x: Double, baseline: Double, starts: [Double])] {
        let canvas = CairoCanvas(width: 1, height: 1)
        let determinant = linear.0 * linear.3 - linear.1 * linear.2
        if determinant.isFinite && abs(determinant) > 1e-12 {
            var matrix = cairo_matrix_t(xx: linear.0, yx: linear.1, xy: linear.2, yy: linear.3, x0: 0, y0: 0)
            C.cairo_set_matrix(canvas.cr, &matrix)
        }
        guard let layout = canvas.layout(string, fontSize: fontSize, width: width, alignment: alignment) else {
            return []
        }
        defer { C.g_object_unref(UnsafeMutableRawPointer(layout)) }
        let bytes = Array(string.utf8)
        let scale = Double(PANGO_SCALE)
        var lines: [(text: String, x: Double, baseline: Double, starts: [Double])] = []
        guard let iterator = C.pango_layout_get_iter(layout) else { return [] }
        defer { C.pango_layout_iter_free(iterator) }
        repeat {
            guard let line = C.pango_layout_iter_get_line_readonly(iterator) else { continue }
            let start = max(0, min(bytes.count, Int(line.pointee.start_index)))
            let end = max(start, min(bytes.count, start + Int(line.pointee.length)))
            var logical = PangoRectangle()
            C.pango_layout_iter_get_line_extents(iterator, nil, &logical)
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            var starts: [Double] = []
            var index = start
            for scalar in text.unicodeScalars {
                var box = PangoRectangle()
                C.pango_layout_index_to_pos(layout, Int32(index), &box)
                starts.append(Double(box.x) / scale)
                index += scalar.utf8.count
            }
            lines.append(
                (text, Double(logical.x) / scale, Double(C.pango_layout_iter_get_baseline(iterator)) / scale, starts))
        } while C.pango_layout_iter_next_line(iterator) != 0
        return lines
    }

    /// A Pango layout of `string` set as `CATextLayer` sets it (nil: nothing to draw).
    private func layout(_ string: String, fontSize: Double, width: Double, alignment: String) -> OpaquePointer? {
        // Glyphs larger than 100,000 pixels would cover any canvas many times over: not drawn.
        guard !string.isEmpty, fontSize > 0, fontSize.isFinite, fontSize * deviceScale <= 100_000 else { return nil }
        let layout = C.pango_cairo_create_layout(cr)!
        let font = C.pango_font_description_from_string(Self.fontFamilies)!
        defer { C.pango_font_description_free(font) }
        C.pango_font_description_set_absolute_size(font, min(fontSize, 10_000) * Double(PANGO_SCALE))
        C.pango_layout_set_font_description(layout, font)
        if width > 0 && width.isFinite {
            C.pango_layout_set_width(layout, Int32(min(width, 1e6) * Double(PANGO_SCALE)))
        }
        switch alignment {
        case "center": C.pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case "right": C.pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        case "justified": C.pango_layout_set_justify(layout, 1)
        default: C.pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        }
        C.pango_layout_set_text(layout, string, -1)
        return layout
    }

    /// The characters of `string` no installed face can draw (shown as boxes): 0 where the
    /// fonts cover it.
    public func unknownGlyphs(_ string: String) -> Int {
        let layout = C.pango_cairo_create_layout(cr)!
        defer { C.g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = C.pango_font_description_from_string(Self.fontFamilies)!
        defer { C.pango_font_description_free(font) }
        C.pango_layout_set_font_description(layout, font)
        C.pango_layout_set_text(layout, string, -1)
        return Int(C.pango_layout_get_unknown_glyphs_count(layout))
    }

    /// Another canvas drawn at (`x`, `y`) pixels, with the current transform ignored.
    public func draw(_ other: CairoCanvas, x: Double, y: Double) {
        C.cairo_save(cr)
        C.cairo_identity_matrix(cr)
        C.cairo_set_source_surface(cr, other.surface, x, y)
        C.cairo_paint(cr)
        C.cairo_restore(cr)
    }

    // MARK: output

    /// The image as PNG bytes (``PNGEncoder``).
    public func png(compact: Bool = false) -> [UInt8] {
        C.cairo_surface_flush(surface)
        guard let data = C.cairo_image_surface_get_data(surface) else { return [] }
        return PNGEncoder.encode(
            UnsafePointer(data), width: width, height: height, stride: Int(C.cairo_image_surface_get_stride(surface)),
            compact: compact)
    }

    /// The image as libpng writes it through Cairo (`cairo_surface_write_to_png_stream`): the
    /// baseline ``PNGEncoder`` is measured against by `choreo-bench --pictures-only`.
    package func cairoPNG() -> [UInt8] {
        C.cairo_surface_flush(surface)
        let sink = PNGSink()
        _ = C.cairo_surface_write_to_png_stream(surface, pngWrite, Unmanaged.passUnretained(sink).toOpaque())
        return sink.bytes
    }

    /// A PNG decoded by libpng through Cairo: its size and straight RGBA pixels (nil if it is
    /// not a PNG). For tests that check what was drawn, or what a browser drew.
    package static func decodePNG(_ png: [UInt8]) -> (width: Int, height: Int, rgba: [UInt8])? {
        let source = PNGSource(png)
        let surface = C.cairo_image_surface_create_from_png_stream(pngRead, Unmanaged.passUnretained(source).toOpaque())
        defer { C.cairo_surface_destroy(surface) }
        guard C.cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
            let data = C.cairo_image_surface_get_data(surface)
        else { return nil }
        let width = Int(C.cairo_image_surface_get_width(surface))
        let height = Int(C.cairo_image_surface_get_height(surface))
        let stride = Int(C.cairo_image_surface_get_stride(surface))
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let p = data + y * stride + x * 4
                let a = Int(p[3])
                func straight(_ v: UInt8) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (Int(v) * 255 + a / 2) / a)) }
                let i = (y * width + x) * 4
                rgba[i] = straight(p[2])
                rgba[i + 1] = straight(p[1])
                rgba[i + 2] = straight(p[0])
                rgba[i + 3] = UInt8(a)
            }
        }
        return (width, height, rgba)
    }

    /// The pixels as premultiplied ARGB words, row by row: what the next frame of an animated PNG
    /// is compared with.
    package func words() -> [UInt32] {
        C.cairo_surface_flush(surface)
        let stride = Int(C.cairo_image_surface_get_stride(surface))
        guard let data = C.cairo_image_surface_get_data(surface) else { return [] }
        var result = [UInt32](repeating: 0, count: width * height)
        result.withUnsafeMutableBytes { out in
            for row in 0..<height {
                (out.baseAddress! + row * width * 4).copyMemory(from: data + row * stride, byteCount: width * 4)
            }
        }
        return result
    }

    /// The smallest rectangle (x, y, width, height) outside which the pixels equal `previous`
    /// (``words()`` of a canvas of the same size), nil when none differ.
    package func changedRegion(from previous: [UInt32]) -> (x: Int, y: Int, width: Int, height: Int)? {
        C.cairo_surface_flush(surface)
        let stride = Int(C.cairo_image_surface_get_stride(surface))
        guard previous.count == width * height, let data = C.cairo_image_surface_get_data(surface) else {
            return (0, 0, width, height)
        }
        var top = height
        var bottom = -1
        var left = width
        var right = -1
        previous.withUnsafeBufferPointer { old in
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                let before = old.baseAddress! + y * width
                // Rows that did not change are compared as memory, the common case.
                if memcmp(row, before, width * 4) == 0 { continue }
                var first = 0
                while row[first] == before[first] { first += 1 }
                var last = width - 1
                while row[last] == before[last] { last -= 1 }
                top = min(top, y)
                bottom = y
                left = min(left, first)
                right = max(right, last)
            }
        }
        guard bottom >= 0 else { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }

    /// A rectangle of the image as PNG bytes to draw over `previous` (the frame before, as
    /// ``words()``): when every pixel that changed is opaque or was transparent before, the
    /// unchanged ones are left transparent (they compress to nearly nothing) and the rectangle
    /// is to be blended over the frame before (`over` true); otherwise it is the rectangle as it
    /// is, to replace it.
    package func png(
        x: Int, y: Int, width regionWidth: Int, height regionHeight: Int, over previous: [UInt32]
    ) -> (png: [UInt8], over: Bool) {
        C.cairo_surface_flush(surface)
        guard previous.count == width * height, let data = C.cairo_image_surface_get_data(surface) else {
            return (png(x: x, y: y, width: regionWidth, height: regionHeight), false)
        }
        let stride = Int(C.cairo_image_surface_get_stride(surface))
        var region = [UInt32](repeating: 0, count: regionWidth * regionHeight)
        var opaque = true
        previous.withUnsafeBufferPointer { old in
            region.withUnsafeMutableBufferPointer { out in
                for row in 0..<regionHeight where opaque {
                    let current = UnsafeRawPointer(data + (y + row) * stride + x * 4).assumingMemoryBound(
                        to: UInt32.self)
                    let before = old.baseAddress! + (y + row) * width + x
                    let target = out.baseAddress! + row * regionWidth
                    for column in 0..<regionWidth where current[column] != before[column] {
                        // Drawn over the frame before, a pixel is itself when it is opaque or
                        // when nothing was there.
                        if current[column] >> 24 != 0xFF && before[column] >> 24 != 0 {
                            opaque = false
                            break
                        }
                        target[column] = current[column]
                    }
                }
            }
        }
        guard opaque else { return (png(x: x, y: y, width: regionWidth, height: regionHeight), false) }
        let encoded = region.withUnsafeBytes { bytes in
            PNGEncoder.encode(
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), width: regionWidth, height: regionHeight,
                stride: regionWidth * 4, compact: true)
        }
        return (encoded, true)
    }

    /// A rectangle of the image as PNG bytes (``PNGEncoder``).
    package func png(x: Int, y: Int, width regionWidth: Int, height regionHeight: Int) -> [UInt8] {
        C.cairo_surface_flush(surface)
        guard let data = C.cairo_image_surface_get_data(surface) else { return [] }
        let stride = Int(C.cairo_image_surface_get_stride(surface))
        return PNGEncoder.encode(
            UnsafePointer(data + y * stride + x * 4), width: regionWidth, height: regionHeight, stride: stride)
    }

    /// Premultiplied ARGB pixels, row by row (`width` × 4 bytes each): for tests and diffs.
    public func pixels() -> [UInt8] {
        C.cairo_surface_flush(surface)
        let stride = Int(C.cairo_image_surface_get_stride(surface))
        guard let data = C.cairo_image_surface_get_data(surface) else { return [] }
        var result = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            for column in 0..<(width * 4) { result[row * width * 4 + column] = data[row * stride + column] }
        }
        return result
    }
}

/// Where Cairo's PNG writer puts its bytes.
private final class PNGSink {
    var bytes: [UInt8] = []
}

private let pngWrite: cairo_write_func_t = { closure, data, length in
    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
    let sink = Unmanaged<PNGSink>.fromOpaque(closure).takeUnretainedValue()
    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
    return CAIRO_STATUS_SUCCESS
}

/// Where Cairo's PNG reader takes its bytes from.
private final class PNGSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

private let pngRead: cairo_read_func_t = { closure, data, length in
    guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
    let source = Unmanaged<PNGSource>.fromOpaque(closure).takeUnretainedValue()
    let count = Int(length)
    guard source.offset + count <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
    source.bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress! + source.offset, count: count) }
    source.offset += count
    return CAIRO_STATUS_SUCCESS
}

/// The functions every canvas calls. Reaching here without the library is a programming error
/// (what draws checks ``CairoCanvas/library`` first), stopped with the reason.
private let C = CairoCanvas.library.functions("pictures need Cairo and Pango")
