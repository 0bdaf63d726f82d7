import Foundation
import Synchronization

/// Storage in a SQLite file in the data directory: the default, for one `choreo serve`.
///
/// One connection behind a mutex (SQLite serialises writers anyway, and scene documents are
/// small). The schema version lives in `PRAGMA user_version`; ``migrations`` upgrades older
/// files in order, each in its own transaction.
public final class SQLiteStore: Storage {
    /// Schema migrations; entry i upgrades user_version i to i + 1.
    static let migrations: [String] = [
        """
        CREATE TABLE scenes (
            id TEXT PRIMARY KEY,
            name TEXT,
            created TEXT NOT NULL,
            seq INTEGER NOT NULL UNIQUE,
            document BLOB NOT NULL
        );
        CREATE INDEX scenes_seq ON scenes(seq);
        """,
        """
        CREATE TABLE arena_config (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            document BLOB NOT NULL
        );
        CREATE TABLE probes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            node TEXT NOT NULL,
            url TEXT NOT NULL,
            time_ms INTEGER NOT NULL,
            verdict TEXT NOT NULL,
            reason TEXT,
            http_status INTEGER,
            latency_us INTEGER NOT NULL
        );
        CREATE INDEX probes_node ON probes(node, seq);
        """,
        """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            created TEXT NOT NULL,
            scene BLOB NOT NULL
        );
        CREATE TABLE session_inputs (
            session TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            at REAL NOT NULL,
            document BLOB NOT NULL,
            PRIMARY KEY (session, number)
        );
        """,
        """
        CREATE TABLE arena_rounds (
            id INTEGER PRIMARY KEY,
            started REAL NOT NULL,
            duration REAL NOT NULL,
            scene BLOB NOT NULL,
            ranking TEXT NOT NULL,
            champion TEXT
        );
        """,
        """
        CREATE TABLE alert_events (
            rule TEXT NOT NULL,
            node TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            reminder INTEGER NOT NULL,
            event TEXT NOT NULL,
            at_ms INTEGER NOT NULL,
            since_ms INTEGER NOT NULL,
            description TEXT NOT NULL,
            PRIMARY KEY (rule, node, sequence, reminder)
        );
        CREATE TABLE alert_deliveries (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            key TEXT NOT NULL,
            channel TEXT NOT NULL,
            url TEXT NOT NULL,
            content_type TEXT NOT NULL,
            body BLOB NOT NULL,
            status TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            next_ms INTEGER NOT NULL,
            last_error TEXT,
            created_ms INTEGER NOT NULL,
            UNIQUE (key, channel)
        );
        CREATE INDEX alert_deliveries_due ON alert_deliveries(status, next_ms);
        """,
        """
        CREATE TABLE probe_buckets (
            node TEXT NOT NULL,
            resolution INTEGER NOT NULL,
            start_ms INTEGER NOT NULL,
            total INTEGER NOT NULL DEFAULT 0,
            up INTEGER NOT NULL DEFAULT 0,
            excluded INTEGER NOT NULL DEFAULT 0,
            up_ms INTEGER NOT NULL DEFAULT 0,
            covered_ms INTEGER NOT NULL DEFAULT 0,
            excluded_ms INTEGER NOT NULL DEFAULT 0,
            latency_count INTEGER NOT NULL DEFAULT 0,
            latency_sum_us INTEGER NOT NULL DEFAULT 0,
            h0 INTEGER NOT NULL DEFAULT 0,
            h1 INTEGER NOT NULL DEFAULT 0,
            h2 INTEGER NOT NULL DEFAULT 0,
            h3 INTEGER NOT NULL DEFAULT 0,
            h4 INTEGER NOT NULL DEFAULT 0,
            h5 INTEGER NOT NULL DEFAULT 0,
            h6 INTEGER NOT NULL DEFAULT 0,
            h7 INTEGER NOT NULL DEFAULT 0,
            h8 INTEGER NOT NULL DEFAULT 0,
            h9 INTEGER NOT NULL DEFAULT 0,
            h10 INTEGER NOT NULL DEFAULT 0,
            h11 INTEGER NOT NULL DEFAULT 0,
            h12 INTEGER NOT NULL DEFAULT 0,
            h13 INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (node, resolution, start_ms)
        );
        CREATE INDEX probe_buckets_age ON probe_buckets(resolution, start_ms);
        """,
        """
        ALTER TABLE probe_buckets ADD COLUMN excluded_up INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE probe_buckets ADD COLUMN excluded_up_ms INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE probe_buckets ADD COLUMN excluded_latency_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE probe_buckets ADD COLUMN excluded_latency_sum_us INTEGER NOT NULL DEFAULT 0;
        """,
    ]

    private let database: Mutex<SQLiteDatabase?>
    /// A second connection for health checks alone, with a short busy timeout: a health check
    /// never waits behind the store's mutex, nor longer than ``healthWait`` behind a writer.
    private let healthConnection: Mutex<SQLiteDatabase?>
    /// How long a health check waits for another writer's lock.
    public static let healthWait = 1.0
    public let path: String
    /// The database file's device and inode when it was opened: a file deleted or replaced
    /// under a running server is noticed, instead of acknowledging writes that will be lost.
    private let identity: (device: UInt64, inode: UInt64)

    /// Opens (creating if needed) `choreo.sqlite` in `directory`, and migrates it.
    public init(directory: String) throws(StorageError) {
        if let reason = Self.makeDirectory(directory) {
            throw StorageError(
                "cannot create data directory \(directory): \(reason) (the user running choreo needs to read and write it)"
            )
        }
        path = (directory as NSString).appendingPathComponent("choreo.sqlite")
        // Say "permission denied" rather than SQLite's "unable to open database file".
        for (place, mode) in [(directory, R_OK | W_OK | X_OK), (path, R_OK | W_OK)]
        where FileManager.default.fileExists(atPath: place) && access(place, mode) != 0 {
            throw StorageError(
                "cannot use \(place): \(String(cString: strerror(errno))) (the user running choreo needs to read and write it)"
            )
        }
        let connection = try SQLiteDatabase(path: path)
        try Self.migrate(connection)
        database = Mutex(connection)
        healthConnection = Mutex(
            try SQLiteDatabase(path: path, busyTimeout: Int32(Self.healthWait * 1000)))
        guard let opened = Self.fileIdentity(path) else {
            throw StorageError("cannot stat \(path): \(String(cString: strerror(errno)))")
        }
        identity = opened
    }

    /// Creates `directory` and its missing parents (`mkdir -p`); nil once it exists, else the
    /// operating system's reason ("Permission denied" for a parent the user cannot write or
    /// enter), which says what to fix where Foundation's sentence would not.
    static func makeDirectory(_ directory: String) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? nil : String(cString: strerror(ENOTDIR))
        }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != directory, let reason = makeDirectory(parent) { return reason }
        if mkdir(directory, 0o755) == 0 || errno == EEXIST { return nil }
        return String(cString: strerror(errno))
    }

    private static func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Why the database file can no longer be trusted, or nil: it was deleted (with its
    /// directory, say) or replaced since it was opened.
    func fileProblem() -> String? {
        guard let now = Self.fileIdentity(path) else {
            return "the database file \(path) is gone (\(String(cString: strerror(errno))))"
        }
        if now != identity { return "the database file \(path) was replaced while choreo ran" }
        return nil
    }

    /// Applies the missing migrations, each in its own transaction that reads the version
    /// under the write lock: processes opening one file at once migrate it once.
    static func migrate(_ database: SQLiteDatabase) throws(StorageError) {
        while true {
            try database.execute("BEGIN IMMEDIATE")
            do throws(StorageError) {
                let version = Int(try database.query("PRAGMA user_version").first?.first?.integer ?? 0)
                guard version <= migrations.count else {
                    throw StorageError(
                        "database schema version \(version) is newer than this choreo (\(migrations.count))",
                        kind: .corrupt)
                }
                if version == migrations.count {
                    try database.execute("COMMIT")
                    return
                }
                try database.execute(migrations[version])
                try database.execute("PRAGMA user_version = \(version + 1)")
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The schema version of the open file.
    public func schemaVersion() throws(StorageError) -> Int {
        try withDatabase { db throws(StorageError) in
            Int(try db.query("PRAGMA user_version").first?.first?.integer ?? 0)
        }
    }

    func withDatabase<T>(_ body: (SQLiteDatabase) throws(StorageError) -> T) throws(StorageError) -> T {
        let result: Result<T, StorageError> = database.withLock { connection in
            guard let connection else { return .failure(StorageError("the database is closed")) }
            if let problem = fileProblem() { return .failure(StorageError(problem)) }
            do throws(StorageError) {
                return .success(try body(connection))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Stores a scene and returns its summary; durable once this returns.
    public func insert(name: String?, document: [UInt8], created: Date) throws(StorageError) -> SceneSummary {
        let id = StoredIdentity.sceneID()
        let timestamp = StoredIdentity.timestamp(created)
        _ = try withDatabase { db throws(StorageError) in
            // One statement, so the next sequence number is taken under the write lock even when
            // another process writes the same file.
            try db.query(
                "INSERT INTO scenes (id, name, created, seq, document) VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM scenes), ?)",
                [.text(id), name.map { .text($0) } ?? .null, .text(timestamp), .blob(document)])
        }
        return SceneSummary(id: id, name: name, created: timestamp)
    }

    /// A stored scene, or nil.
    public func get(_ id: String) throws(StorageError) -> SceneRecord? {
        try withDatabase { db throws(StorageError) in
            guard
                let row = try db.query("SELECT id, name, created, document FROM scenes WHERE id = ?", [.text(id)]).first
            else { return nil }
            return SceneRecord(
                summary: SceneSummary(id: row[0].text ?? id, name: row[1].text, created: row[2].text ?? ""),
                document: row[3].blob ?? [])
        }
    }

    /// Deletes a scene; false if there was none.
    public func delete(_ id: String) throws(StorageError) -> Bool {
        try withDatabase { db throws(StorageError) in
            try db.query("DELETE FROM scenes WHERE id = ?", [.text(id)])
            return db.changes > 0
        }
    }

    /// A page of scenes, newest first; `after` is the cursor returned with the previous page.
    public func list(limit: Int, after cursor: Int64?) throws(StorageError) -> (items: [SceneSummary], next: Int64?) {
        try withDatabase { db throws(StorageError) in
            let rows = try db.query(
                "SELECT id, name, created, seq FROM scenes WHERE seq < ? ORDER BY seq DESC LIMIT ?",
                [.integer(cursor ?? Int64.max), .integer(Int64(limit + 1))])
            let items = rows.prefix(limit).map {
                SceneSummary(id: $0[0].text ?? "", name: $0[1].text, created: $0[2].text ?? "")
            }
            let next = rows.count > limit ? rows[limit - 1][3].integer : nil
            return (Array(items), next)
        }
    }

    /// Why storage is not healthy, or nil (`/healthz`): the file is still the one opened, and a
    /// write could start within ``healthWait`` — on a connection of its own, so a long write
    /// of this process or a lock another process holds delays it by that much at most.
    public func healthProblem() -> String? {
        if let problem = fileProblem() { return problem }
        return healthConnection.withLock { connection -> String? in
            guard let connection else { return "the database is closed" }
            do throws(StorageError) {
                try connection.checkWritable()
                return nil
            } catch {
                return error.message
            }
        }
    }

    public var backend: String { "sqlite" }
    public var location: String { path }
    /// One process owns the file: it always leads, and has nobody to tell.
    public var coordination: (any ReplicaCoordination)? { nil }

    /// Closes the database; later calls fail.
    public func close() {
        database.withLock { connection in
            connection?.close()
            connection = nil
        }
        healthConnection.withLock { connection in
            connection?.close()
            connection = nil
        }
    }
}
