import Foundation

/// A live test's failure: what went wrong, as it reads.
public struct LiveError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs a program to completion: exit status, standard output, standard error.
///
/// The output goes to files, not pipes: suites run in parallel, and a process another test
/// starts meanwhile inherits a pipe's write end, so reading a pipe to its end could wait for
/// that other process to exit. The child is started with `posix_spawn` and reaped here with
/// `waitpid`: Foundation's `Process.waitUntilExit` sometimes never returned for a child that
/// had exited while other tests started processes. The wait is bounded (`timeout` seconds, then
/// SIGKILL). A child killed by a signal reports 128 + the signal's number.
/// With `input`, the child reads it on standard input (else /dev/null).
public func runProgram(_ path: String, _ arguments: [String], input: String? = nil, timeout: Double = 300) throws -> (
    Int32, String, String
) {
    let scratch = Scratch("choreo-run")
    let outPath = scratch.file("stdout")
    let errPath = scratch.file("stderr")
    let inPath = try input.map { try scratch.write("stdin", $0) } ?? "/dev/null"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw LiveError("cannot start \(path): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { break }
        if reaped == -1 && errno != EINTR { throw LiveError("waitpid \(path): \(String(cString: strerror(errno)))") }
        if Date() > deadline {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            throw LiveError("\(path) \(arguments) ran for more than \(timeout) s")
        }
        usleep(5_000)
    }
    let signal = status & 0x7f
    let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    return (
        exitStatus, try String(contentsOfFile: outPath, encoding: .utf8),
        try String(contentsOfFile: errPath, encoding: .utf8)
    )
}
