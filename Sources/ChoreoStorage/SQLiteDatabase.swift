import CSQLite
import Foundation

/// A SQLite connection: the only code in choreo that touches SQLite's C API.
///
/// Opened in WAL mode with `synchronous = FULL`, so a write acknowledged to a client survives
/// the process being killed.
///
/// `@unchecked Sendable`: the connection is opened with `SQLITE_OPEN_NOMUTEX` and is only ever
/// used while ``SQLiteStore`` holds its mutex, so no two threads use it at once.
final class SQLiteDatabase: @unchecked Sendable {
    private var handle: OpaquePointer?
    /// Prepared statements by their text, reused (reset) from one call to the next: the arena's
    /// writes run the same few statements thousands of times a second.
    private var statements: [String: OpaquePointer] = [:]
    /// Statements kept prepared, at most (past it, all are finalized and the cache starts again).
    static let cachedStatements = 64

    /// Opens the file; `busyTimeout` is how long a statement waits for another connection's lock.
    init(path: String, busyTimeout milliseconds: Int32 = 5_000) throws(StorageError) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            var message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            // The operating system's reason, such as "Permission denied", says what to fix.
            if let handle, case let code = sqlite3_system_errno(handle), code != 0 {
                message += " (\(String(cString: strerror(code))))"
            }
            sqlite3_close(handle)
            handle = nil
            throw StorageError("cannot open database at \(path): \(message)")
        }
        sqlite3_busy_timeout(handle, milliseconds)
        // Switching a new file to WAL takes an exclusive lock that the busy timeout does not
        // wait for: another process opening the same file at once gets SQLITE_BUSY. Try again,
        // for as long as the busy timeout would have waited.
        var attempts = max(1, Int(milliseconds) / 20)
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                break
            } catch {
                attempts -= 1
                guard attempts > 0, sqlite3_errcode(handle) == SQLITE_BUSY else { throw error }
                usleep(20_000)
            }
        }
        try execute("PRAGMA synchronous = FULL")
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit { close() }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    private func error(_ context: String) -> StorageError {
        StorageError("\(context): \(handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")")
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(StorageError) {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw StorageError("\(sql.prefix(60)): \(text)")
        }
    }

    /// A bindable value.
    enum Binding {
        case text(String)
        case integer(Int64)
        case real(Double)
        case blob([UInt8])
        case null
    }

    /// A result column value.
    enum Column {
        case text(String)
        case integer(Int64)
        case real(Double)
        case blob([UInt8])
        case null

        var real: Double? {
            if case .real(let value) = self { return value }
            if case .integer(let value) = self { return Double(value) }
            return nil
        }

        var text: String? {
            if case .text(let value) = self { return value }
            return nil
        }
        var integer: Int64? {
            if case .integer(let value) = self { return value }
            return nil
        }
        var blob: [UInt8]? {
            if case .blob(let value) = self { return value }
            if case .text(let value) = self { return Array(value.utf8) }
            return nil
        }
    }

    /// Prepares, binds, steps to completion and returns every row.
    @discardableResult
    func query(_ sql: String, _ bindings: [Binding] = []) throws(StorageError) -> [[Column]] {
        var statement = statements[sql]
        if statement == nil {
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw error("prepare") }
            if statements.count >= Self.cachedStatements {
                for cached in statements.values { sqlite3_finalize(cached) }
                statements = [:]
            }
            statements[sql] = statement
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, binding) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch binding {
            case .text(let value): status = sqlite3_bind_text(statement, index, value, -1, csqlite_transient())
            case .integer(let value): status = sqlite3_bind_int64(statement, index, value)
            case .real(let value): status = sqlite3_bind_double(statement, index, value)
            case .blob(let value):
                status = value.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
                }
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw error("bind") }
        }
        var rows: [[Column]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw error("step") }
            let count = sqlite3_column_count(statement)
            var row: [Column] = []
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_TEXT: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
                case SQLITE_BLOB:
                    let size = Int(sqlite3_column_bytes(statement, column))
                    if let pointer = sqlite3_column_blob(statement, column), size > 0 {
                        row.append(.blob(Array(UnsafeRawBufferPointer(start: pointer, count: size))))
                    } else {
                        row.append(.blob([]))
                    }
                case SQLITE_NULL: row.append(.null)
                default: row.append(.null)
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Whether a write could start now: takes the write lock (`BEGIN IMMEDIATE`, waiting at most
    /// the busy timeout), reads the schema page from the file, and rolls back. Writes nothing.
    func checkWritable() throws(StorageError) {
        try execute("BEGIN IMMEDIATE")
        do {
            _ = try query("SELECT count(*) FROM sqlite_master")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        try execute("ROLLBACK")
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }
}
