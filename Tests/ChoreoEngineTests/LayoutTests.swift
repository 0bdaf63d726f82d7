import Testing

@testable import ChoreoEngine

/// The sizes of the values a large scene holds by the ten thousand: a scene of 10,000 layers
/// keeps about 30,000 of each, so a field made inline instead of boxed costs megabytes
/// (docs/benchmarks.md, "A large scene's memory").
@Suite struct LayoutTests {
    /// A value keeps a number, point or size inline; rects, colors, paths and transforms are
    /// boxed, so a `Value` is 17 bytes instead of 41 and every keyframe list, model history
    /// and from/to/by triple is half the size.
    @Test func valuesKeepOnlyPointsInline() {
        #expect(MemoryLayout<Value>.size == 17)
        #expect(MemoryLayout<Value>.stride == 24)
        #expect(MemoryLayout<Value?>.stride == 24)
        #expect(MemoryLayout<BasicValues>.stride == 72)
    }

    /// A timing function boxes its Bézier solver; animations and attached animations share it.
    /// An attached animation keeps its leaves as a first index and a count, and leaves its
    /// callbacks and the path of its action to the runner (``LiveAnimations/scripts``).
    @Test func animationsShareTheirCurves() {
        #expect(MemoryLayout<TimingFunction>.stride == 16)
        #expect(MemoryLayout<Animation>.stride == 120)
        #expect(MemoryLayout<Timeline.AttachedAnimation>.stride == 120)
    }

    /// A program's ops are frozen in the storage they were built in: no second copy of the
    /// largest array at the moment a large program is made. Storage mostly unused (appends
    /// past what was reserved) is cut to size first.
    @Test func aGrowableBufferFreezesInPlace() {
        let ops = GrowableBuffer<Int>()
        ops.reserveCapacity(100)
        for value in 0..<100 { ops.append(value) }
        ops.removeLast(from: 98)
        let address = ops.baseAddress
        let frozen = ops.freeze()
        defer { frozen.free() }
        #expect(UnsafeRawPointer(frozen.pointer(0)) == address)
        #expect(frozen.count == 98 && frozen[97] == 97 && ops.count == 0)

        let grown = GrowableBuffer<Int>()
        for value in 0..<33 { grown.append(value) }  // capacity 64 by doubling
        let wasteful = grown.baseAddress
        let cut = grown.freeze()
        defer { cut.free() }
        #expect(UnsafeRawPointer(cut.pointer(0)) != wasteful)
        #expect((0..<33).allSatisfy { cut[$0] == $0 })
    }

    /// A cursor that samples frame by frame holds no tile (a tile frame of a 10,000-layer
    /// program is 1.8 MB); one made for tiles holds the frames asked for.
    @Test func onlyATilingCursorHoldsATile() throws {
        let scene = Scene(layers: [LayerNode(id: "a")], script: [])
        let plan = FramePlan(
            timeline: try SceneRunner.run(scene), times: [0], selected: [true], columns: [[.keyPath(KeyPath(.opacity))]]
        )
        #expect(plan.makeCursor().tileCapacity == 0)
        #expect(plan.makeCursor(tileFrames: 7).tileCapacity == 7)
    }

    /// A compiled op (its cumulative step kept in a lane it does not use otherwise) and the
    /// sampling program's small records.
    @Test func programRecordsKeepTheirSizes() {
        #expect(MemoryLayout<SamplingProgram.Op>.stride == 128)
        #expect(MemoryLayout<Event>.stride == 56)
    }
}
