import CPostgres
import ChoreoLibraries
import Foundation

/// A PostgreSQL connection: the only code in choreo that touches libpq. libpq is loaded with
/// the first connection, not when choreo starts (``SharedLibrary``); without it, connecting
/// throws the reason and the package to install.
///
/// Statements go through `PQexecParams` with parameters sent apart from the SQL (text, and
/// `bytea` as binary) and results asked for in binary, so no value is ever quoted into SQL.
/// A connection that broke (the server restarted, a network failure) is reset at its next use.
/// With a `statementDeadline`, a statement is sent and its answer awaited without blocking
/// (`PQsendQueryParams`, `poll` on its socket): one the server has not answered by then — a
/// frozen server or a black-holed network, where the server's own `statement_timeout` cannot
/// fire and TCP stays acknowledged — closes the connection and fails as unavailable.
///
/// `@unchecked Sendable`: a connection is used by one thread at a time, which
/// ``PostgresStore``'s pool and ``PostgresCoordination``'s own threads guarantee.
final class PostgresConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    /// libpq, loaded once, with the first connection.
    static let library = SharedLibrary.load("libpq.so.5", package: "libpq5", bind: cpostgres_bind)
    /// Statements run after every (re)connection: session settings.
    private let setup: [String]
    /// Seconds a statement's answer is awaited at most; nil: as long as libpq waits.
    let statementDeadline: Double?

    /// Opens a connection to `url` (a `postgres://` URL or a libpq `key=value` string); the
    /// defaults given here are overridden by what the URL says.
    init(
        url: String, defaults: [String: String] = [:], setup: [String] = [], statementDeadline: Double? = nil
    ) throws(StorageError) {
        self.setup = setup
        self.statementDeadline = statementDeadline
        if case .failure(let unavailable) = Self.library {
            throw StorageError("cannot connect to PostgreSQL: \(unavailable)")
        }
        var keywords = defaults.keys.sorted()
        var values = keywords.map { defaults[$0]! }
        keywords.append("dbname")
        values.append(url)
        let cKeywords = keywords.map { strdup($0) }
        let cValues = values.map { strdup($0) }
        defer {
            cKeywords.forEach { free($0) }
            cValues.forEach { free($0) }
        }
        let keywordPointers = cKeywords.map { UnsafePointer($0) } + [nil]
        let valuePointers = cValues.map { UnsafePointer($0) } + [nil]
        handle = PQ.PQconnectdbParams(keywordPointers, valuePointers, 1)
        guard let handle, PQ.PQstatus(handle) == CONNECTION_OK else {
            let message = handle.map { Self.trimmed(PQ.PQerrorMessage($0)) } ?? "out of memory"
            PQ.PQfinish(handle)
            self.handle = nil
            throw StorageError("cannot connect to PostgreSQL at \(Self.redacted(url)): \(message)")
        }
        _ = PQ.PQsetNoticeProcessor(handle, { _, _ in }, nil)
        for statement in setup { try execute(statement) }
    }

    deinit { close() }

    func close() {
        if let handle {
            PQ.PQfinish(handle)
            self.handle = nil
        }
    }

    /// Whether the connection is usable as far as libpq knows (it learns of a break at the
    /// next statement).
    var isOpen: Bool { handle.map { PQ.PQstatus($0) == CONNECTION_OK } ?? false }

    /// Reconnects a broken connection with the same parameters; true if it had to.
    @discardableResult
    func resetIfBroken() throws(StorageError) -> Bool {
        guard let handle else { throw StorageError("the connection is closed") }
        guard PQ.PQstatus(handle) != CONNECTION_OK else { return false }
        PQ.PQreset(handle)
        guard PQ.PQstatus(handle) == CONNECTION_OK else {
            throw StorageError("cannot reconnect to PostgreSQL: \(Self.trimmed(PQ.PQerrorMessage(handle)))")
        }
        for statement in setup { try execute(statement) }
        return true
    }

    /// A value sent with a statement.
    enum Value {
        case text(String)
        case integer(Int64)
        case real(Double)
        case bytes([UInt8])
        case null
    }

    /// A value read from a row.
    enum Column {
        case text(String)
        case integer(Int64)
        case real(Double)
        case bytes([UInt8])
        case bool(Bool)
        case null

        var text: String? {
            switch self {
            case .text(let value): value
            case .bytes(let value): String(decoding: value, as: UTF8.self)
            default: nil
            }
        }
        var integer: Int64? {
            if case .integer(let value) = self { return value }
            return nil
        }
        var real: Double? {
            switch self {
            case .real(let value): value
            case .integer(let value): Double(value)
            default: nil
            }
        }
        var bytes: [UInt8]? {
            switch self {
            case .bytes(let value): value
            case .text(let value): Array(value.utf8)
            default: nil
            }
        }
        var bool: Bool? {
            if case .bool(let value) = self { return value }
            return nil
        }
    }

    /// Rows returned and rows changed by one statement.
    struct Outcome {
        var rows: [[Column]]
        var changed: Int
    }

    /// Runs statements with no parameters and no rows (several may be separated by `;`).
    func execute(_ sql: String) throws(StorageError) {
        guard let handle else { throw StorageError("the connection is closed") }
        let result =
            try statementDeadline.map { (deadline: Double) throws(StorageError) in
                try awaitResult(handle, sent: PQ.PQsendQuery(handle, sql), sql: sql, deadline: deadline)
            } ?? PQ.PQexec(handle, sql)
        defer { PQ.PQclear(result) }
        try check(result, sql)
    }

    /// Runs one statement with parameters `$1…`, returning its rows (binary results) and count.
    @discardableResult
    func run(_ sql: String, _ parameters: [Value] = []) throws(StorageError) -> Outcome {
        guard let handle else { throw StorageError("the connection is closed") }
        var types: [Oid] = []
        var formats: [Int32] = []
        var lengths: [Int32] = []
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        defer { buffers.forEach { free($0) } }
        for parameter in parameters {
            switch parameter {
            case .text(let text): buffers.append(strdup(text))
            case .integer(let value): buffers.append(strdup(String(value)))
            case .real(let value): buffers.append(strdup("\(value)"))
            case .null: buffers.append(nil)
            case .bytes(let bytes):
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(buffer, base, bytes.count) }
                }
                buffers.append(buffer)
            }
            if case .bytes(let bytes) = parameter {
                types.append(17)  // bytea
                formats.append(1)
                lengths.append(Int32(bytes.count))
            } else {
                types.append(0)
                formats.append(0)
                lengths.append(0)
            }
        }
        let values = buffers.map { UnsafePointer($0) }
        let result: OpaquePointer?
        if let deadline = statementDeadline {
            let sent = PQ.PQsendQueryParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, 1)
            result = try awaitResult(handle, sent: sent, sql: sql, deadline: deadline)
        } else {
            result = PQ.PQexecParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, 1)
        }
        defer { PQ.PQclear(result) }
        try check(result, sql)
        var rows: [[Column]] = []
        let rowCount = PQ.PQntuples(result)
        let columnCount = PQ.PQnfields(result)
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var columns: [Column] = []
            columns.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                columns.append(Self.decode(result, row, column))
            }
            rows.append(columns)
        }
        let changed = PQ.PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
        return Outcome(rows: rows, changed: changed)
    }

    /// The result of a statement sent (`sent` is what `PQsend…` returned), awaited at most
    /// `deadline` seconds: the first that failed, else the last (a string of statements has
    /// one each). Past the deadline the connection is closed and the statement fails as
    /// unavailable; the server may still run it, as after a dropped connection.
    private func awaitResult(
        _ handle: OpaquePointer, sent: Int32, sql: String, deadline: Double
    ) throws(StorageError) -> OpaquePointer? {
        guard sent == 1 else { return nil }
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, deadline) * 1e9)
        while PQ.PQisBusy(handle) == 1 {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < end else {
                close()
                throw StorageError(
                    "\(sql.prefix(60).split(separator: "\n").first ?? ""): PostgreSQL did not answer within \(deadline) s",
                    kind: .unavailable)
            }
            var descriptor = pollfd(fd: PQ.PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard descriptor.fd >= 0 else { break }
            let ready = poll(&descriptor, 1, Int32(min(1000, max(1, (end - now) / 1_000_000))))
            if ready < 0 && errno != EINTR { break }
            // A broken connection: the results say so (PQgetResult no longer waits).
            if ready > 0 && PQ.PQconsumeInput(handle) == 0 { break }
        }
        var chosen: OpaquePointer?
        var failed = false
        while let next = PQ.PQgetResult(handle) {
            if failed {
                PQ.PQclear(next)
                continue
            }
            PQ.PQclear(chosen)
            chosen = next
            let status = PQ.PQresultStatus(next)
            failed = status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK
        }
        return chosen
    }

    /// A column of a binary result, by its type.
    private static func decode(_ result: OpaquePointer?, _ row: Int32, _ column: Int32) -> Column {
        if PQ.PQgetisnull(result, row, column) == 1 { return .null }
        let length = Int(PQ.PQgetlength(result, row, column))
        guard let pointer = PQ.PQgetvalue(result, row, column) else { return .null }
        let raw = UnsafeRawBufferPointer(start: pointer, count: length)
        func bigEndian(_ size: Int) -> UInt64 {
            raw.prefix(size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        switch PQ.PQftype(result, column) {
        case 16: return .bool(length > 0 && raw[0] != 0)
        case 20 where length == 8: return .integer(Int64(bitPattern: bigEndian(8)))
        case 23 where length == 4: return .integer(Int64(Int32(bitPattern: UInt32(bigEndian(4)))))
        case 21 where length == 2: return .integer(Int64(Int16(bitPattern: UInt16(bigEndian(2)))))
        case 701 where length == 8: return .real(Double(bitPattern: bigEndian(8)))
        case 700 where length == 4: return .real(Double(Float(bitPattern: UInt32(bigEndian(4)))))
        case 17: return .bytes(Array(raw))
        default: return .text(String(decoding: raw, as: UTF8.self))
        }
    }

    /// Throws when `result` is not a success, with a kind from its SQLSTATE.
    private func check(_ result: OpaquePointer?, _ sql: String) throws(StorageError) {
        let status = result.map { PQ.PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK else { return }
        let state = result.flatMap { PQ.PQresultErrorField($0, cpostgres_diag_sqlstate()) }.map { String(cString: $0) }
        let message =
            result.map { Self.trimmed(PQ.PQresultErrorMessage($0)) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? handle.map { Self.trimmed(PQ.PQerrorMessage($0)) } ?? "closed"
        let broken = !isOpen
        throw StorageError(
            "\(sql.prefix(60).split(separator: "\n").first ?? ""): \(message)",
            kind: broken ? .unavailable : Self.kind(of: state))
    }

    /// The error kind of a SQLSTATE (PostgreSQL manual, appendix A).
    static func kind(of state: String?) -> StorageError.Kind {
        guard let state else { return .unavailable }
        switch state {
        case "23505", "40001", "40P01": return .conflict
        case "23503": return .notFound
        default:
            if state.hasPrefix("42") || state.hasPrefix("22") || state.hasPrefix("XX") { return .corrupt }
            return .unavailable
        }
    }

    // MARK: Notifications

    /// Subscribes this connection to `channel` (`LISTEN`).
    func listen(_ channel: String) throws(StorageError) {
        guard let handle else { throw StorageError("the connection is closed") }
        let quoted = PQ.PQescapeIdentifier(handle, channel, channel.utf8.count)
        defer { PQ.PQfreemem(quoted) }
        try execute("LISTEN \(quoted.map { String(cString: $0) } ?? "\"\"")")
    }

    /// Waits up to `timeout` seconds for notifications and returns those that arrived.
    func notifications(waiting timeout: Double) throws(StorageError) -> [(channel: String, payload: String)] {
        guard let handle else { throw StorageError("the connection is closed") }
        var pending = drain(handle)
        guard pending.isEmpty else { return pending }
        var descriptor = pollfd(fd: PQ.PQsocket(handle), events: Int16(POLLIN), revents: 0)
        guard descriptor.fd >= 0 else { throw StorageError("the connection has no socket") }
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        guard ready > 0 else { return [] }
        guard PQ.PQconsumeInput(handle) == 1 else {
            throw StorageError("the listening connection broke: \(Self.trimmed(PQ.PQerrorMessage(handle)))")
        }
        pending = drain(handle)
        if PQ.PQstatus(handle) != CONNECTION_OK { throw StorageError("the listening connection broke") }
        return pending
    }

    private func drain(_ handle: OpaquePointer) -> [(channel: String, payload: String)] {
        var received: [(channel: String, payload: String)] = []
        while let notice = PQ.PQnotifies(handle) {
            received.append((String(cString: notice.pointee.relname), String(cString: notice.pointee.extra)))
            PQ.PQfreemem(notice)
        }
        return received
    }

    // MARK: Text

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// The URL without its password, for messages and logs: the user information's password
    /// and a `password=` parameter (in the query or a key/value connection string) both.
    static func redacted(_ url: String) -> String {
        var text = url.replacingOccurrences(
            of: #"password=[^&\s]+"#, with: "password=…", options: [.regularExpression, .caseInsensitive])
        guard let scheme = text.range(of: "://"),
            let at = text.range(of: "@", range: scheme.upperBound..<(text.firstIndex(of: "?") ?? text.endIndex))
        else { return text }
        let credentials = text[scheme.upperBound..<at.lowerBound]
        if let colon = credentials.firstIndex(of: ":") {
            text = String(text[..<colon]) + ":…" + String(text[at.lowerBound...])
        }
        return text
    }
}

/// The functions every connection calls; a connection exists only once the library loaded
/// (``PostgresConnection/init(url:defaults:setup:)`` checks first).
private let PQ = PostgresConnection.library.functions("PostgreSQL storage needs libpq")
