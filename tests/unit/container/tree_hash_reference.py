#!/usr/bin/env python3
"""The tree hash of format 1 (docs/containers.md, "The image's identity"), written from the docs alone,
apart from sweep's C++: the reference the container tests compare sweep-image-id with. Usage: ROOT."""
import hashlib
import os
import stat
import sys

TYPES = {stat.S_IFREG: b"f", stat.S_IFDIR: b"d", stat.S_IFLNK: b"l", stat.S_IFIFO: b"p",
         stat.S_IFSOCK: b"s", stat.S_IFCHR: b"c", stat.S_IFBLK: b"b"}


def entries(root):
    """Every path below root, relative, as bytes; symlinks to directories are not entered."""
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            yield os.path.relpath(os.path.join(dirpath, name), root)


def listing(root):
    out = b"sweep-tree-hash format=1\0"
    for rel in sorted(os.fsencode(p) for p in entries(os.fsencode(root))):
        full = os.path.join(os.fsencode(root), rel)
        st = os.lstat(full)
        kind = TYPES[stat.S_IFMT(st.st_mode)]
        out += kind + b"\0" + b"%04o" % (st.st_mode & 0o7777) + b"\0" + rel + b"\0"
        if kind == b"f":
            with open(full, "rb") as f:
                out += b"%d\0" % st.st_size + hashlib.sha256(f.read()).hexdigest().encode() + b"\0"
        elif kind == b"l":
            out += os.readlink(full) + b"\0"
    return out


if __name__ == "__main__":
    print("sha256:" + hashlib.sha256(listing(sys.argv[1])).hexdigest())
