import Testing

@testable import ChoreoEngine

@Suite struct PropertySlotsTests {
    @Test func storesOnlyWhatIsSetAndReadsItBackByOrdinal() {
        var slots = PropertySlots<[Int]>()
        #expect(slots[3] == nil)
        slots[7] = [70]
        slots[3] = [30]
        slots[40] = [400]
        #expect(slots[3] == [30])
        #expect(slots[7] == [70])
        #expect(slots[40] == [400])
        #expect(slots[4] == nil)
        slots[7] = nil
        #expect(slots[7] == nil)
        #expect(slots[3] == [30] && slots[40] == [400])
        slots[3] = [31]
        #expect(slots[3] == [31])
    }

    @Test func theDefaultSubscriptInsertsThenModifiesInPlace() {
        var slots = PropertySlots<[Int]>()
        slots[5, default: []].append(1)
        slots[5, default: []].append(2)
        slots[2, default: [9]].append(3)
        #expect(slots[5] == [1, 2])
        #expect(slots[2] == [9, 3])
        #expect(slots[6, default: [42]] == [42])
        #expect(slots[6] == nil)
    }

    @Test func aHistoryGrowsInPlaceThroughTheDefaultSubscript() {
        var slots = PropertySlots<History<Value>>()
        for step in 0..<1000 {
            slots[LayerProperty.opacity.ordinal, default: History(initial: .number(1))]
                .set(.number(Double(step)), at: Double(step))
        }
        let history = slots[LayerProperty.opacity.ordinal]
        #expect(history?.values.count == 1001)
        #expect(history?.value(at: 499.5) == .number(499))
        #expect(slots[LayerProperty.position.ordinal] == nil)
    }

    @Test func aHistoryKeepsItsInitialValueInlineAndStepsAtEachChange() {
        var history = History(initial: 1.0)
        #expect(history.isConstant && history.last == 1 && history.values == [1])
        #expect(history.value(at: -5) == 1 && history.value(at: 100) == 1)
        history.set(2, at: 1)
        history.set(3, at: 2)
        // A change at the instant of the last one replaces it; the initial value stays.
        history.set(4, at: 2)
        #expect(!history.isConstant)
        #expect(history.values == [1, 2, 4] && history.times == [1, 2] && history.last == 4)
        #expect(history.value(at: 0.999) == 1)
        #expect(history.value(at: 1) == 2)
        #expect(history.value(at: 1.5) == 2)
        #expect(history.value(at: 2) == 4)
        #expect(history.value(at: 9) == 4)
        #expect(history.initial == 1)
    }

    @Test func aPropertySetIsOneBitPerPropertyListedInDeclarationOrder() {
        var set = LayerPropertySet()
        #expect(set.isEmpty && Array(set).isEmpty)
        set.insert(.spin)
        set.insert(.opacity)
        set.insert(.position)
        set.insert(.opacity)
        #expect(!set.isEmpty)
        #expect(set.contains(.opacity) && set.contains(.spin) && !set.contains(.bounds))
        #expect(Array(set) == [.position, .opacity, .spin])
        set.formUnion([.bounds, .blurRadius])
        #expect(Array(set) == [.position, .bounds, .opacity, .blurRadius, .spin])
        // Every property has a bit of its own, in the order responses list them.
        let all = LayerPropertySet(LayerProperty.allCases.reversed())
        #expect(Array(all) == LayerProperty.allCases.sorted())
        #expect(Array(all) == LayerProperty.allCases)
    }
}
