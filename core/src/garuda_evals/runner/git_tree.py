"""A folder's git tree written without starting git: the snapshots of the stored change.

``git add --all --force`` then ``git write-tree`` (two processes per snapshot, four per run)
store each file as a blob and each folder as a tree in the object folder. For the folders a
run snapshots (a task's files, the agent's result) this module writes the same loose objects
itself and returns the same tree id, with the same exclusions (``judging.change``'s skipped
folders at any depth, bytecode suffixes) and the same neutral attributes (bytes as they are).
Whatever it might not do exactly as git does gives None, and the caller asks git: a ``.git``
anywhere, a name git refuses or treats specially (``.git`` variants, ``~``, ``:``, a link
named ``.gitmodules``), a folder named like a skipped suffix, anything but files, folders
and links, an unreadable entry, a file over ``MAX_BLOB_BYTES``, folders nested deeper than
``MAX_DEPTH`` (the walk takes a frame per level). Tests compare its trees with
git's on the same folders.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import zlib
from pathlib import Path

from garuda_evals.judging.change import MAX_DEPTH, SKIPPED_DIRS, SKIPPED_SUFFIXES

MAX_BLOB_BYTES = 16 * 1024 * 1024
"""Larger files are left to git (which streams them) rather than read whole here."""

EMPTY = b""


class NotLikeGit(Exception):
    """The folder holds something only git itself should decide about."""


def _ordinary(name: str) -> bool:
    """A name git takes as it is: not ``.git`` in any spelling NTFS would give it (git
    refuses those), no short-name ``~``, stream ``:``, ``\\``, control character, or
    trailing dot or space."""
    return not (
        name.lower() == ".git"
        or any(char in name for char in "~:\\")
        or any(ord(char) < 32 for char in name)
        or name.endswith((" ", "."))
    )


SPECIAL_LINKS = (".git", ".mailmap")
"""Links git refuses to store under these names (``.gitattributes``, ``.gitmodules``, ...)."""


def write_object(objects: Path, kind: bytes, body: bytes) -> bytes:
    """Store one loose object (zlib of ``kind size\\0body``) unless present; its binary id."""
    data = kind + b" " + str(len(body)).encode() + b"\0" + body
    digest = hashlib.sha1(data, usedforsecurity=False)
    name = digest.hexdigest()
    folder = objects / name[:2]
    target = folder / name[2:]
    if not target.exists():
        folder.mkdir(exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix="tmp_obj_", dir=folder)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(zlib.compress(data, 1))
            os.chmod(temporary, 0o444)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    return digest.digest()


def _sort_key(entry: tuple[bytes, bytes, bytes]) -> bytes:
    mode, name, _ = entry
    return name + b"/" if mode == b"40000" else name


def _tree(objects: Path, folder: Path, depth: int = 0) -> bytes | None:
    """The tree id of ``folder`` (None when nothing in it is kept: git records no empty tree)."""
    if depth > MAX_DEPTH:
        raise NotLikeGit(folder.name)
    entries: list[tuple[bytes, bytes, bytes]] = []
    with os.scandir(folder) as listing:
        found = list(listing)
    for entry in found:
        name = entry.name
        if not _ordinary(name):
            raise NotLikeGit(name)
        mode = entry.stat(follow_symlinks=False).st_mode
        encoded = os.fsencode(name)
        if stat.S_ISDIR(mode):
            if name.endswith(SKIPPED_SUFFIXES):
                raise NotLikeGit(name)
            if name in SKIPPED_DIRS:
                continue
            tree = _tree(objects, Path(entry.path), depth + 1)
            if tree is not None:
                entries.append((b"40000", encoded, tree))
        elif name.endswith(SKIPPED_SUFFIXES):
            continue
        elif stat.S_ISLNK(mode):
            if name.lower().startswith(SPECIAL_LINKS):
                raise NotLikeGit(name)
            target = os.fsencode(os.readlink(entry.path))
            entries.append((b"120000", encoded, write_object(objects, b"blob", target)))
        elif stat.S_ISREG(mode):
            if entry.stat(follow_symlinks=False).st_size > MAX_BLOB_BYTES:
                raise NotLikeGit(name)
            with open(entry.path, "rb") as stream:
                body = stream.read(MAX_BLOB_BYTES + 1)
            if len(body) > MAX_BLOB_BYTES:
                raise NotLikeGit(name)
            kind = b"100755" if mode & stat.S_IXUSR else b"100644"
            entries.append((kind, encoded, write_object(objects, b"blob", body)))
        else:
            raise NotLikeGit(name)
    if not entries:
        return None
    entries.sort(key=_sort_key)
    body = EMPTY.join(mode + b" " + name + b"\0" + oid for mode, name, oid in entries)
    return write_object(objects, b"tree", body)


def write_tree(git_dir: Path, folder: Path) -> str | None:
    """The id of ``folder``'s tree as git would write it, its objects stored in ``git_dir``;
    None when git must decide (see the module's docstring)."""
    objects = git_dir / "objects"
    try:
        tree = _tree(objects, folder)
    except (NotLikeGit, OSError, UnicodeError):
        return None
    if tree is None:
        return write_object(objects, b"tree", EMPTY).hex()
    return tree.hex()
