import Foundation

/// Live sessions: the scene a session started from and its inputs, each stored before it is
/// acknowledged. The primary key (session, number) lets only one of two writers racing for the
/// same input number succeed.
extension SQLiteStore {
    /// Stores a new session's scene; durable once this returns.
    public func createSession(scene: [UInt8], created: Date) throws(StorageError) -> String {
        let id = StoredIdentity.sessionID()
        let timestamp = StoredIdentity.timestamp(created)
        _ = try withDatabase { db throws(StorageError) in
            try db.query(
                "INSERT INTO sessions (id, created, scene) VALUES (?, ?, ?)",
                [.text(id), .text(timestamp), .blob(scene)])
        }
        return id
    }

    /// Appends input `number` (0-based); false when that number is taken already (a racing writer).
    public func appendInput(session: String, number: Int, at: Double, document: [UInt8]) throws(StorageError) -> Bool {
        try withDatabase { db throws(StorageError) in
            try db.query(
                "INSERT OR IGNORE INTO session_inputs (session, number, at, document) VALUES (?, ?, ?, ?)",
                [.text(session), .integer(Int64(number)), .real(at), .blob(document)])
            return db.changes > 0
        }
    }

    /// A session with its inputs, or nil.
    public func session(_ id: String) throws(StorageError) -> SessionRecord? {
        try withDatabase { db throws(StorageError) in
            guard let row = try db.query("SELECT scene FROM sessions WHERE id = ?", [.text(id)]).first else {
                return nil
            }
            let inputs = try db.query(
                "SELECT at, document FROM session_inputs WHERE session = ? ORDER BY number", [.text(id)])
            return SessionRecord(
                id: id, scene: row[0].blob ?? [],
                inputs: inputs.map { ($0[0].real ?? 0, $0[1].blob ?? []) })
        }
    }

    public func inputs(session id: String, from number: Int) throws(StorageError) -> [StoredInput]? {
        try withDatabase { db throws(StorageError) in
            guard try !db.query("SELECT 1 FROM sessions WHERE id = ?", [.text(id)]).isEmpty else { return nil }
            return try db.query(
                "SELECT at, document FROM session_inputs WHERE session = ? AND number >= ? ORDER BY number",
                [.text(id), .integer(Int64(number))]
            ).map { ($0[0].real ?? 0, $0[1].blob ?? []) }
        }
    }

    /// Deletes a session and its inputs; false if there was none.
    public func deleteSession(_ id: String) throws(StorageError) -> Bool {
        try withDatabase { db throws(StorageError) in
            try db.query("DELETE FROM session_inputs WHERE session = ?", [.text(id)])
            try db.query("DELETE FROM sessions WHERE id = ?", [.text(id)])
            return db.changes > 0
        }
    }

    public func sessionCount() throws(StorageError) -> Int {
        try withDatabase { db throws(StorageError) in
            Int(try db.query("SELECT count(*) FROM sessions").first?[0].integer ?? 0)
        }
    }
}
