#if canImport(Glibc)
    import Glibc
#endif

/// A C library that choreo loads the first time one of its features is used (`dlopen`), not
/// when the process starts: Cairo and Pango for pictures, libcurl for the arena's probes, libpq
/// for PostgreSQL storage, libmicrohttpd for the server.
///
/// Linked the usual way, these libraries and the ones they depend on (GLib, GnuTLS, OpenSSL,
/// Kerberos, LDAP, X11, …; about sixty) are mapped and relocated when any `choreo` command
/// starts, about 10 MiB of resident memory that a `choreo render` to JSON never uses. Each
/// library's shim header lists the functions choreo calls once, as a table of pointers
/// (`c…_functions`), and binds them by name (`c…_bind`); the one Swift file that calls the
/// library calls through that table. The headers still come from the Debian `-dev` packages,
/// so every call is type-checked against them.
package enum SharedLibrary {
    /// Loads the library named `soname` (the Debian package `debianPackage` ships it) and binds
    /// its functions with `bind`, a shim's `c…_bind`, which returns the name of the first
    /// function the library lacks, or nil. Call it once, from a `static let`.
    package static func load<Functions>(
        _ soname: String, package debianPackage: String,
        bind: (UnsafeMutablePointer<Functions>, UnsafeMutableRawPointer) -> UnsafePointer<CChar>?
    ) -> Result<BoundFunctions<Functions>, LibraryUnavailable> {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            return .failure(LibraryUnavailable(soname: soname, debianPackage: debianPackage, reason: reason))
        }
        let functions = UnsafeMutablePointer<Functions>.allocate(capacity: 1)
        defer { functions.deallocate() }
        if let missing = bind(functions, handle) {
            dlclose(handle)
            return .failure(
                LibraryUnavailable(
                    soname: soname, debianPackage: debianPackage,
                    reason: "it has no function \(String(cString: missing))"))
        }
        // The handle stays open for the life of the process: the table points into it.
        return .success(BoundFunctions(table: functions.move()))
    }
}

/// A library's table of function pointers, bound once by ``SharedLibrary/load(_:package:bind:)``
/// and never written again; its members are read as the table's (`MHD.MHD_start_daemon`).
///
/// `@unchecked Sendable`: the table holds only C function pointers into a library that stays
/// loaded for the life of the process, and nothing writes it after it is bound, so any thread
/// may read it. (The shims' `c…_functions` structs are imported from C and are not `Sendable`
/// by themselves; this is the one place that says so for all of them.)
@dynamicMemberLookup
package struct BoundFunctions<Table>: @unchecked Sendable {
    /// The table itself, for a shim function that takes it (`withUnsafePointer(to: MHD.table)`).
    package let table: Table

    package subscript<Member>(dynamicMember member: KeyPath<Table, Member>) -> Member { table[keyPath: member] }
}

/// A library that could not be loaded: which, why, and the Debian package that provides it.
package struct LibraryUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    package let soname: String
    package let debianPackage: String
    package let reason: String

    package init(soname: String, debianPackage: String, reason: String) {
        self.soname = soname
        self.debianPackage = debianPackage
        self.reason = reason
    }

    package var description: String {
        "\(soname) could not be loaded (\(reason)); install the Debian package \(debianPackage)"
    }
}

extension Result where Failure == LibraryUnavailable {
    /// The functions of a library that what uses them checked was loaded: reaching here
    /// without it is a programming error, stopped with `need` and the reason.
    package func functions(_ need: String) -> Success {
        switch self {
        case .success(let functions): functions
        case .failure(let unavailable): preconditionFailure("\(need): \(unavailable)")
        }
    }
}
