import Foundation

/// Where `choreo render --out PATH` writes, without harming what PATH is.
///
/// A new path, or an existing regular file with no other hard link, is written to a temporary
/// file in the same directory and renamed over it when complete: a reader never sees half a
/// file, and the old file's mode and owner are kept. Anything else — a device such as
/// `/dev/null`, a FIFO, a symbolic link (written through to its target), a file with other
/// hard links, or a directory where no temporary file can be made — is opened and written in
/// place (`open`, truncate, write), as a shell's `>` does.
struct OutputFile {
    private let descriptor: Int32
    /// The temporary file to rename over `path` on ``finish()``; nil when writing in place.
    private let temporary: String?
    let path: String?

    /// Standard output.
    static let standardOutput = OutputFile(descriptor: STDOUT_FILENO, temporary: nil, path: nil)

    private init(descriptor: Int32, temporary: String?, path: String?) {
        self.descriptor = descriptor
        self.temporary = temporary
        self.path = path
    }

    /// Opens `path` for writing as described above.
    /// Writes `bytes` whole to `path` (replaced only once they are all written), or to standard
    /// output without a path or with `-`.
    static func write(_ bytes: [UInt8], to path: String?) throws(CLIError) {
        guard let path, path != "-" else {
            Output.write(bytes)
            return
        }
        let file = try open(path)
        do throws(CLIError) {
            try file.write(bytes)
            try file.finish()
        } catch {
            file.abandon()
            throw error
        }
    }

    static func open(_ path: String) throws(CLIError) -> OutputFile {
        var status = stat()
        let exists = lstat(path, &status) == 0
        let regular =
            exists && (status.st_mode & S_IFMT) == S_IFREG && status.st_nlink == 1 && access(path, W_OK) == 0
        if !exists || regular, let (descriptor, temporary) = makeTemporary(beside: path) {
            if regular {
                fchmod(descriptor, status.st_mode & 0o7777)
                _ = fchown(descriptor, status.st_uid, status.st_gid)
            } else {
                let mask = umask(0)
                umask(mask)
                fchmod(descriptor, 0o666 & ~mask)
            }
            return OutputFile(descriptor: descriptor, temporary: temporary, path: path)
        }
        let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure(path) }
        return OutputFile(descriptor: descriptor, temporary: nil, path: path)
    }

    /// A temporary file in the target's directory, or nil where none can be made.
    private static func makeTemporary(beside path: String) -> (Int32, String)? {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array("\(directory)/.\(url.lastPathComponent).choreo-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        return (descriptor, String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private static func failure(_ path: String?) -> CLIError {
        CLIError(message: "cannot write \(path ?? "standard output"): \(String(cString: strerror(errno)))", status: 1)
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(CLIError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Foundation.write(descriptor, $0.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path)
            }
            offset += written
        }
    }

    /// Completes the output: the temporary file replaces the path.
    func finish() throws(CLIError) {
        guard path != nil else { return }
        if let temporary, let path {
            guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporary, path) == 0 else {
                let error = Self.failure(path)
                unlink(temporary)
                throw error
            }
        } else if close(descriptor) != 0 {
            throw Self.failure(path)
        }
    }

    /// Gives up: the temporary file goes, the path is left as it was.
    func abandon() {
        guard path != nil else { return }
        close(descriptor)
        if let temporary { unlink(temporary) }
    }
}
