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
}
