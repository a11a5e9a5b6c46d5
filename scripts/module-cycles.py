#!/usr/bin/env python3
"""Find import circles between the modules of each crate under crates/*/src.

A circle is module A using items of module B while B, directly or through a longer
chain, uses items of A. Modules that use each other cannot be read, tested or moved one
at a time, so the test command (scripts/test.sh) runs this check and fails on any circle.

Usage: python3 scripts/module-cycles.py [REPO_ROOT]   (exit 0: none; 1: circles printed)

The rules (Python 3 standard library only; a lexical reading, not a compiler's):

* Modules. The tree is built from the `mod NAME;` declarations reachable from each
  crate root (`src/lib.rs`, `src/main.rs`; `src/bin/*` are crates of their own and are
  each read as one); `foo.rs` and `foo/mod.rs` are module `foo`, `foo/bar.rs` is
  `foo::bar`. An inline `mod x { ... }` counts as part of the file around it.
* Code only. Comments, string and char literals are removed first, and so is every item
  under `#[cfg(test)]` (a module's own tests may use anything).
* Edges. A path that names a module of the crate is an edge from the module it is written
  in to the deepest module it names: `use` trees and paths in code that start with
  `crate::`, `super::`, `self::`, or the name of a child module of the current module.
  Edges to the module itself and to its own descendants' declarations are still edges
  (a parent that calls into its child depends on it); paths to other crates are ignored.
* Re-exports are signposts, not uses. A `pub use` / `pub(crate) use` / `pub(super) use`
  adds no edge from the module that holds it; a path that reaches an item through such a
  signpost (`crate::Config` where lib.rs has `pub use config::Config`, or a `mod.rs` that
  re-exports its children) is an edge to the module that defines the item. So a child
  that takes a sibling's type through its parent's re-export depends on the sibling, not
  on the parent; a child that uses an item its parent itself defines depends on the
  parent, and if the parent uses that child too, that is a circle and is reported.

Each circle is printed as its strongly connected component, with one example use
(file:line) for each edge inside it.
"""

import os
import re
import sys
from collections import defaultdict

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments_and_literals(text):
    """Blank out comments, strings and char literals, keeping newlines (line numbers)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        m = re.compile(r'b?r(#*)"').match(text, i)
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + m.group(1)
            j = text.find(end, m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
            continue
        if c == "'":
            m = re.compile(r"'(\\.[^']*|[^\\'])'").match(text, i)
            if m:
                out.append("' '")
                i = m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


def skip_item(text, i):
    """Index just past the item that starts at `i` (up to `;` or a balanced `{}`)."""
    n = len(text)
    while i < n:
        if text[i] == ";":
            return i + 1
        if text[i] == "{":
            depth = 0
            while i < n:
                if text[i] == "{":
                    depth += 1
                elif text[i] == "}":
                    depth -= 1
                    if depth == 0:
                        return i + 1
                i += 1
            return n
        i += 1
    return n


def strip_test_items(text):
    """Blank out every item under `#[cfg(test)]`, keeping newlines."""
    pattern = re.compile(r"#\[cfg\(test\)\]")
    while True:
        m = pattern.search(text)
        if not m:
            return text
        j = m.end()
        while True:  # further attributes on the same item
            a = re.compile(r"\s*#\[").match(text, j)
            if not a:
                break
            depth, k = 1, a.end()
            while k < len(text) and depth:
                depth += {"[": 1, "]": -1}.get(text[k], 0)
                k += 1
            j = k
        end = skip_item(text, j)
        text = text[: m.start()] + "\n" * text.count("\n", m.start(), end) + text[end:]


def split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for c in s:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def expand_use_tree(tree, prefix=()):
    """`a::{b, c::{d as e, *}}` -> [(segments, alias)]; alias is the bound name."""
    tree = re.sub(r"\s+", " ", tree).strip()
    if tree.startswith("::"):
        tree = tree[2:]
    brace = tree.find("{")
    if brace >= 0 and tree.endswith("}"):
        head = tree[:brace].rstrip(": ")
        segs = tuple(s.strip() for s in head.split("::") if s.strip())
        out = []
        for part in split_top(tree[brace + 1 : -1]):
            out.extend(expand_use_tree(part, prefix + segs))
        return out
    alias = None
    m = re.match(r"(.*?)\s+as\s+(" + IDENT + r")$", tree)
    if m:
        tree, alias = m.group(1), m.group(2)
    segs = prefix + tuple(s.strip() for s in tree.split("::") if s.strip())
    if segs and segs[-1] == "self":
        segs = segs[:-1]
    if alias is None and segs:
        alias = segs[-1]
    return [(segs, alias)]


class Crate:
    def __init__(self, name, root_file):
        self.name = name
        self.files = {}  # module path (tuple) -> file
        self.code = {}  # module path -> stripped code
        self.children = defaultdict(set)
        self.load(root_file, (), os.path.dirname(root_file))

    def load(self, path, module, child_dir):
        with open(path, encoding="utf-8") as f:
            code = strip_test_items(strip_comments_and_literals(f.read()))
        self.files[module] = path
        self.code[module] = code
        for m in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", code, re.M):
            name = m.group(1)
            for cand in (os.path.join(child_dir, name + ".rs"), os.path.join(child_dir, name, "mod.rs")):
                if os.path.exists(cand):
                    self.children[module].add(name)
                    self.load(cand, module + (name,), os.path.join(child_dir, name))
                    break

    def uses(self, module):
        """(segments, alias, is_reexport, line) for each leaf of each `use` in module."""
        code = self.code[module]
        pattern = re.compile(r"(?<![A-Za-z0-9_])(pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]*);")
        for m in pattern.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            for segs, alias in expand_use_tree(m.group(2)):
                yield segs, alias, bool(m.group(1)), line

    def start(self, module, segs):
        """Resolve the first segments of a path to (module, rest), or None if external."""
        if not segs:
            return None
        if segs[0] == "crate":
            return (), segs[1:]
        if segs[0] == "self":
            return module, segs[1:]
        if segs[0] == "super":
            cur, rest = module, segs
            while rest and rest[0] == "super":
                if not cur:
                    return None
                cur, rest = cur[:-1], rest[1:]
            return cur, rest
        if segs[0] in self.children[module]:
            return module, segs
        return None


def analyse(crate):
    # Signposts: module -> {name: segments as written}, module -> [glob segments]
    named, globs, defined = defaultdict(dict), defaultdict(list), defaultdict(set)
    item_def = re.compile(
        r"^\s*pub(?:\([^)]*\))?\s+(?:unsafe\s+|async\s+|const\s+)*"
        r"(?:fn|struct|enum|trait|type|const|static|union|macro)\s+(" + IDENT + ")",
        re.M,
    )
    for module in crate.files:
        for m in item_def.finditer(crate.code[module]):
            defined[module].add(m.group(1))
        for segs, alias, reexport, _ in crate.uses(module):
            if not reexport:
                continue
            if segs and segs[-1] == "*":
                globs[module].append(segs[:-1])
            elif alias:
                named[module][alias] = segs

    def resolve(module, segs, seen=()):
        """The module that defines what `segs` (written in `module`) names, or None."""
        s = crate.start(module, segs)
        if s is None:
            return None
        cur, rest = s
        while rest and rest[0] in crate.children[cur]:
            cur, rest = cur + (rest[0],), rest[1:]
        if not rest or rest[0] == "*":
            return cur
        item = rest[0]
        key = (cur, item)
        if key in seen:
            return cur
        if item in named[cur]:
            target = resolve(cur, named[cur][item], seen + (key,))
            return cur if target is None else target
        if item not in defined[cur]:
            for g in globs[cur]:
                target = resolve(cur, g + (item,), seen + (key,))
                if target is not None and item in defined[target]:
                    return target
        return cur

    edges = defaultdict(dict)  # from -> {to: "file:line"}

    def add(frm, to, line):
        if to is not None and to != frm and to not in edges[frm]:
            edges[frm][to] = "%s:%d" % (crate.files[frm], line)

    for module in crate.files:
        code = crate.code[module]
        for segs, _, reexport, line in crate.uses(module):
            if not reexport:
                add(module, resolve(module, segs), line)
        # Paths in code (outside `use`): crate::…, super::…, self::…, child::…
        body = re.sub(r"(?<![A-Za-z0-9_])use\s+[^;]*;", lambda m: "\n" * m.group(0).count("\n"), code)
        path = re.compile(r"(?<![A-Za-z0-9_:])((?:" + IDENT + r"\s*::\s*)+" + IDENT + ")")
        for m in path.finditer(body):
            segs = tuple(s.strip() for s in m.group(1).split("::"))
            if segs[0] in ("crate", "super", "self") or segs[0] in crate.children[module]:
                add(module, resolve(module, segs), body.count("\n", 0, m.start()) + 1)
    return edges


def components(nodes, edges):
    """Tarjan's strongly connected components of size > 1."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def name(crate, module):
    return "::".join(("crate",) + module)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    crates_dir = os.path.join(root, "crates")
    found = 0
    checked = 0
    for crate_name in sorted(os.listdir(crates_dir)):
        src = os.path.join(crates_dir, crate_name, "src")
        roots = [os.path.join(src, f) for f in ("lib.rs", "main.rs") if os.path.exists(os.path.join(src, f))]
        bin_dir = os.path.join(src, "bin")
        if os.path.isdir(bin_dir):
            roots += [os.path.join(bin_dir, f) for f in sorted(os.listdir(bin_dir)) if f.endswith(".rs")]
        for root_file in roots:
            crate = Crate(crate_name, root_file)
            checked += len(crate.files)
            edges = analyse(crate)
            for comp in components(crate.files, edges):
                found += 1
                rel = os.path.relpath(root_file, root)
                print("circle in %s (%s): %s" % (crate_name, rel, ", ".join(name(crate, m) for m in comp)))
                members = set(comp)
                for frm in comp:
                    for to, where in sorted(edges[frm].items()):
                        if to in members:
                            print("    %s -> %s  (%s)" % (name(crate, frm), name(crate, to), os.path.relpath(where, root)))
    if found:
        print("module-cycles: %d circle(s) among %d modules" % (found, checked))
        return 1
    print("module-cycles: no circles among %d modules" % checked, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
