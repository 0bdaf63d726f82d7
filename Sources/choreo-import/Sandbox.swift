import CSandbox
import Glibc

/// The walls the import helper stands behind while it reads a stranger's code (docs/security.md,
/// "The import helper"), put up once the libraries it needs are loaded and before the first
/// byte of the source is read — as Compiler Explorer runs compilers under nsjail:
///
/// 1. **An empty root.** The helper's root directory becomes a directory made for it and
///    removed at once: nothing is in it and nothing can be made in it, so no path names a file
///    of the machine (`#include "/etc/passwd"`, `__has_include`, `/dev/zero` all find nothing).
///    `chroot(2)` needs `CAP_SYS_CHROOT`: an unprivileged helper takes it in a user namespace of
///    its own (`unshare(CLONE_NEWUSER)`, the one uid and gid mapped to themselves); one started
///    as root uses its own and then becomes `nobody`.
/// 2. **No capabilities**, and no way to gain any (`PR_SET_NO_NEW_PRIVS`).
/// 3. **A seccomp filter**: every call that opens, makes, changes or runs a file, opens a
///    socket, or changes the walls fails with `EACCES` — for the helper and every thread it
///    starts, whether or not the empty root could be made.
///
/// The filter is required: a helper that cannot install it stops (``enter()`` fails) rather
/// than read code unwalled. The empty root needs a kernel that allows user namespaces to
/// unprivileged users, or a helper started as root; where neither holds (a container whose
/// seccomp profile forbids `unshare`, run as a non-root user), the filter stands alone, and
/// ``Walls/root`` says so.
enum Sandbox {
    struct Walls {
        /// How the empty root was made, or why it was not.
        var root: String
        var rootStands: Bool
    }

    /// The uid and gid of `nobody`, which a helper started as root becomes.
    static let nobody: UInt32 = 65534

    /// Puts up the walls; the reason when the required one (the filter) could not be.
    static func enter() -> Result<Walls, SandboxError> {
        guard csandbox_no_new_privileges() == 0 else { return .failure(SandboxError("PR_SET_NO_NEW_PRIVS", errno)) }
        let walls = emptyRoot()
        guard csandbox_drop_capabilities() == 0 || errno == EPERM else {
            return .failure(SandboxError("dropping capabilities", errno))
        }
        guard csandbox_filter_files() == 0 else {
            return .failure(SandboxError("installing the seccomp filter", errno))
        }
        return .success(walls)
    }

    /// Makes the root directory an empty, removed directory (see the type's documentation).
    private static func emptyRoot() -> Walls {
        let uid = getuid()
        let gid = getgid()
        let privileged = geteuid() == 0
        var namespace = false
        if !privileged {
            guard csandbox_unshare_user_and_mount() == 0 else {
                return Walls(root: "not made: no user namespace (errno \(errno))", rootStands: false)
            }
            // The one identity this process had, mapped to itself; setgroups must be denied
            // before an unprivileged process may write its gid_map.
            guard write("/proc/self/setgroups", "deny"), write("/proc/self/uid_map", "0 \(uid) 1"),
                write("/proc/self/gid_map", "0 \(gid) 1")
            else {
                return Walls(root: "not made: the user namespace's identity maps (errno \(errno))", rootStands: false)
            }
            namespace = true
        }
        var template = Array("/tmp/choreo-import-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            return Walls(root: "not made: no directory for it in /tmp (errno \(errno))", rootStands: false)
        }
        let directory = String(cString: made)
        guard chdir(directory) == 0 else {
            rmdir(directory)
            return Walls(root: "not made: chdir (errno \(errno))", rootStands: false)
        }
        rmdir(directory)
        guard chroot(".") == 0, chdir("/") == 0 else {
            return Walls(root: "not made: chroot (errno \(errno))", rootStands: false)
        }
        if privileged {
            // Root inside an empty root could still make devices or chroot again: it becomes nobody.
            guard setgroups(0, nil) == 0, setgid(nobody) == 0, setuid(nobody) == 0 else {
                return Walls(root: "made, but root could not become nobody (errno \(errno))", rootStands: false)
            }
        }
        return Walls(
            root: namespace ? "an empty root in a user namespace" : "an empty root, as nobody", rootStands: true)
    }

    /// Writes `text` to the file at `path` (a /proc control file); whether all of it was taken.
    private static func write(_ path: String, _ text: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
}

struct SandboxError: Error, CustomStringConvertible {
    let description: String
    init(_ step: String, _ error: Int32) { description = "\(step) failed (errno \(error))" }
}
