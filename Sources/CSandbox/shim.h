/* The Linux kernel interfaces the import helper walls itself in with (docs/security.md, "The
   import helper"): user and mount namespaces, chroot, capabilities and a seccomp filter. Glibc
   declares no wrapper for capset(2) and seccomp's filter is a BPF program of macros, neither of
   which Swift imports: these few inline functions are the helper's only way to them. */
#ifndef CHOREO_SANDBOX_H
#define CHOREO_SANDBOX_H
#include <errno.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* unshare(2) into a user and a mount namespace of the process's own (glibc declares unshare only
   under _GNU_SOURCE, which a module's header cannot set). */
static inline int csandbox_unshare_user_and_mount(void) {
    return (int)syscall(SYS_unshare, CLONE_NEWUSER | CLONE_NEWNS);
}

/* prctl(PR_SET_NO_NEW_PRIVS): no exec may raise privileges; seccomp needs it unprivileged. */
static inline int csandbox_no_new_privileges(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

/* Empties the process's capability sets (effective, permitted, inheritable) and its bounding set. */
static inline int csandbox_drop_capabilities(void) {
    for (int cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM) return -1;
    }
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2] = {{0, 0, 0}, {0, 0, 0}};
    return (int)syscall(SYS_capset, &header, data);
}

#if defined(__x86_64__)
#define CSANDBOX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CSANDBOX_ARCH AUDIT_ARCH_AARCH64
#endif

#define CSANDBOX_DENY(name) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 1), \
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA))

/* A seccomp filter, for this thread and every thread it starts: the calls that open, make,
   change or run a file, open a socket, or leave or change the walls fail with EACCES. Reading
   and writing the descriptors already open (standard input, output and error), memory and
   threads are untouched, and so is stat(2): glibc's fstat is fstatat(fd, "", AT_EMPTY_PATH),
   and a filter cannot read the path to tell the two apart (the empty root answers a stat of
   any name with ENOENT). Another architecture, or an x32 call, is killed. */
static inline int csandbox_filter_files(void) {
#ifdef CSANDBOX_ARCH
    struct sock_filter program[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CSANDBOX_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        CSANDBOX_DENY(open), CSANDBOX_DENY(creat), CSANDBOX_DENY(mkdir), CSANDBOX_DENY(rmdir),
        CSANDBOX_DENY(link), CSANDBOX_DENY(unlink), CSANDBOX_DENY(symlink), CSANDBOX_DENY(rename),
        CSANDBOX_DENY(chmod), CSANDBOX_DENY(chown), CSANDBOX_DENY(lchown), CSANDBOX_DENY(mknod),
        CSANDBOX_DENY(uselib),
#endif
        CSANDBOX_DENY(openat), CSANDBOX_DENY(openat2), CSANDBOX_DENY(open_by_handle_at),
        CSANDBOX_DENY(name_to_handle_at), CSANDBOX_DENY(mkdirat), CSANDBOX_DENY(unlinkat), CSANDBOX_DENY(linkat), CSANDBOX_DENY(symlinkat),
        CSANDBOX_DENY(renameat), CSANDBOX_DENY(renameat2), CSANDBOX_DENY(fchmodat), CSANDBOX_DENY(fchownat),
        CSANDBOX_DENY(mknodat), CSANDBOX_DENY(truncate), CSANDBOX_DENY(chdir), CSANDBOX_DENY(fchdir),
        CSANDBOX_DENY(execve), CSANDBOX_DENY(execveat), CSANDBOX_DENY(socket), CSANDBOX_DENY(socketpair),
        CSANDBOX_DENY(mount), CSANDBOX_DENY(umount2), CSANDBOX_DENY(pivot_root), CSANDBOX_DENY(chroot),
        CSANDBOX_DENY(unshare), CSANDBOX_DENY(setns), CSANDBOX_DENY(ptrace), CSANDBOX_DENY(process_vm_readv),
        CSANDBOX_DENY(process_vm_writev), CSANDBOX_DENY(memfd_create), CSANDBOX_DENY(inotify_add_watch),
        CSANDBOX_DENY(fanotify_init), CSANDBOX_DENY(bpf), CSANDBOX_DENY(perf_event_open),
        CSANDBOX_DENY(io_uring_setup), CSANDBOX_DENY(userfaultfd),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog filter = {(unsigned short)(sizeof(program) / sizeof(program[0])), program};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &filter);
#else
    errno = ENOSYS;
    return -1;
#endif
}

#endif
