import ChoreoArena
import Testing

/// The arena's one reader and writer of times: impossible dates refused, the accepted range
/// 1970-01-01T00:00:00Z…9999-12-31T23:59:59Z, four digits of year written.
struct CivilTimeTests {
    static func refusal(_ text: String) -> String? {
        if case .failure(let refusal) = CivilTime.parse(rfc3339: text) { return refusal.message }
        return nil
    }

    @Test func impossibleDatesAreRefused() {
        for text in [
            "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T10:00:00Z", "2026-06-31T00:00:00Z",
            "2026-09-31T00:00:00Z", "2026-11-31T00:00:00Z", "1900-02-29T00:00:00Z", "2026-01-32T00:00:00Z",
            "2026-01-00T00:00:00Z",
        ] {
            #expect(Self.refusal(text) != nil, "\(text)")
        }
        #expect(Self.refusal("2026-02-30T00:00:00Z")?.contains("February 2026 has 28 days") == true)
        for text in ["2024-02-29T00:00:00Z", "2000-02-29T12:00:00Z", "2026-04-30T23:59:59Z", "2026-12-31T00:00:00Z"] {
            #expect(Self.refusal(text) == nil, "\(text)")
        }
    }

    @Test func timesOutsideTheRangeAreRefused() {
        for text in [
            "0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "1970-01-01T00:30:00+01:00",
            "9999-12-31T23:00:00-05:00",
        ] {
            #expect(
                Self.refusal(text)?.contains("from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z") == true, "\(text)")
        }
        #expect(CivilTime.milliseconds(rfc3339: "1970-01-01T00:00:00Z") == 0)
        #expect(CivilTime.milliseconds(rfc3339: "9999-12-31T23:59:59.999Z") == CivilTime.latestMs)
    }

    @Test func timesAreWrittenWithFourDigitsOfYear() {
        #expect(CivilTime.rfc3339(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(CivilTime.rfc3339(milliseconds: CivilTime.latestMs) == "9999-12-31T23:59:59.999Z")
        #expect(CivilTime.rfc3339(milliseconds: -62_135_596_800_000) == "0001-01-01T00:00:00.000Z")
        #expect(CivilTime.rfc3339(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(GatusDocuments.timestamp(1_796_119_203_512) == "2026-12-01T10:00:03.512Z")
        // Every time read is written back as it was.
        for text in ["2026-03-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z", "1970-01-01T00:00:00.000Z"] {
            #expect(CivilTime.milliseconds(rfc3339: text).map(CivilTime.rfc3339(milliseconds:)) == text)
        }
    }

    @Test func monthsEndWithinTheRange() throws {
        let last = try CivilTime.parse(month: "9999-11").get()
        #expect(CivilTime.rfc3339(milliseconds: last.toMs) == "9999-12-01T00:00:00.000Z")
        for month in ["9999-12", "1969-12", "0001-01", "2026-00", "+202-11", "2026-1"] {
            #expect(CivilTime.month(month) == nil, "\(month)")
        }
        #expect(CivilTime.month("1970-01")?.fromMs == 0)
    }
}
