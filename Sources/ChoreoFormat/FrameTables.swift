import ChoreoEngine

/// The JSON keys every frame writes, escaped once and laid out flat for the encoder's inner
/// loop: per layer its `"id":`, per column of the ``FramePlan`` its `"name":`.
///
/// Frames are encoded on every core at once; reading nested Swift arrays there would retain
/// and release shared buffers for every layer, and threads contend on those counts. These
/// tables are read in place and never touch a reference count.
final class FrameTables: Sendable {
    let keyBytes: FrozenBuffer<UInt8>
    /// Per column of the plan: `"name":` in `keyBytes`.
    let columnKeys: FrozenBuffer<Range<Int>>
    /// Per layer: `"id":` in `keyBytes`.
    let layerKeys: FrozenBuffer<Range<Int>>

    init(keyBytes: [UInt8], columnKeys: [Range<Int>], layerKeys: [Range<Int>]) {
        self.keyBytes = FrozenBuffer(keyBytes)
        self.columnKeys = FrozenBuffer(columnKeys)
        self.layerKeys = FrozenBuffer(layerKeys)
    }

    deinit {
        keyBytes.free()
        columnKeys.free()
        layerKeys.free()
    }
}
