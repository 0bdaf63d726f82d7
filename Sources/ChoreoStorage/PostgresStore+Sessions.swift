import Foundation

/// Live sessions in PostgreSQL. The primary key (session, number) lets exactly one of two
/// replicas racing for the same input number store it.
extension PostgresStore {
    public func createSession(scene: [UInt8], created: Date) throws(StorageError) -> String {
        let id = StoredIdentity.sessionID()
        _ = try withConnection { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO sessions (id, created, scene) VALUES ($1, $2, $3)",
                [.text(id), .text(StoredIdentity.timestamp(created)), .bytes(scene)])
        }
        return id
    }

    public func appendInput(session: String, number: Int, at: Double, document: [UInt8]) throws(StorageError) -> Bool {
        try withConnection { connection throws(StorageError) in
            try connection.run(
                "INSERT INTO session_inputs (session, number, at, document) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                [.text(session), .integer(Int64(number)), .real(at), .bytes(document)]
            ).changed > 0
        }
    }

    public func session(_ id: String) throws(StorageError) -> SessionRecord? {
        try withConnection(retry: true) { connection throws(StorageError) in
            // One snapshot for both reads: the inputs are those of the session as it was.
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { try? connection.execute("COMMIT") }
            guard let row = try connection.run("SELECT scene FROM sessions WHERE id = $1", [.text(id)]).rows.first
            else { return nil }
            let inputs = try connection.run(
                "SELECT at, document FROM session_inputs WHERE session = $1 ORDER BY number", [.text(id)]
            ).rows
            return SessionRecord(
                id: id, scene: row[0].bytes ?? [], inputs: inputs.map { ($0[0].real ?? 0, $0[1].bytes ?? []) })
        }
    }

    public func inputs(session id: String, from number: Int) throws(StorageError) -> [StoredInput]? {
        try withConnection(retry: true) { connection throws(StorageError) in
            // One statement: a session that exists with no new inputs gives one row of nulls.
            let rows = try connection.run(
                """
                SELECT i.at, i.document FROM sessions s
                LEFT JOIN session_inputs i ON i.session = s.id AND i.number >= $2
                WHERE s.id = $1 ORDER BY i.number
                """, [.text(id), .integer(Int64(number))]
            ).rows
            guard !rows.isEmpty else { return nil }
            return rows.compactMap { row in row[0].real.map { ($0, row[1].bytes ?? []) } }
        }
    }

    public func deleteSession(_ id: String) throws(StorageError) -> Bool {
        try withConnection { connection throws(StorageError) in
            try connection.run("DELETE FROM sessions WHERE id = $1", [.text(id)]).changed > 0
        }
    }

    public func sessionCount() throws(StorageError) -> Int {
        try withConnection(retry: true) { connection throws(StorageError) in
            let value = try connection.run("SELECT count(*) FROM sessions").rows.first?[0]
            return Int(value?.integer ?? value?.text.flatMap { Int64($0) } ?? 0)
        }
    }
}
