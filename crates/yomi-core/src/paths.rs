//! Paths written inside files: a relative path in an experiment or configuration file
//! names a file next to it, wherever the command that reads it runs.
//!
//! Every loader that reads such a file from disk resolves the paths in it with
//! [`resolve_in_file`]; text given without a file (a string from Python, a default) has no
//! directory of its own, so its paths stay relative to the current directory, as do paths
//! given on the command line.

use std::path::{Component, Path, PathBuf};

/// Makes `path`, written inside the file at `file`, name what it names from the current
/// directory: a relative path is joined to `file`'s directory; an absolute one is kept.
///
/// `file` itself may be relative (to the current directory): `experiments/a.toml` with
/// `out = "a.jsonl"` gives `experiments/a.jsonl`, and a file in the current directory
/// leaves its paths as written. A leading `..` of `path` climbs out of `file`'s directory
/// by name (`experiments/a.toml` with `../data/s.txt` gives `data/s.txt`, the path a
/// report then prints), as the shell does for `cd`: the file's directory is taken as the
/// directory it is named as, not the target of a symbolic link.
pub fn resolve_in_file(file: &Path, path: &mut PathBuf) {
    if path.is_absolute() {
        return;
    }
    let Some(dir) = file.parent() else {
        return;
    };
    let mut dir = dir.to_path_buf();
    let mut rest = path.components().peekable();
    while rest.peek() == Some(&Component::ParentDir)
        && matches!(dir.components().next_back(), Some(Component::Normal(_)))
    {
        rest.next();
        dir.pop();
    }
    *path = dir.join(rest.collect::<PathBuf>());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(file: &str, path: &str) -> PathBuf {
        let mut p = PathBuf::from(path);
        resolve_in_file(Path::new(file), &mut p);
        p
    }

    #[test]
    fn relative_paths_join_the_files_directory() {
        assert_eq!(
            resolved("experiments/a.toml", "a.jsonl"),
            Path::new("experiments/a.jsonl")
        );
        assert_eq!(resolved("experiments/a.toml", "../b/c"), Path::new("b/c"));
        assert_eq!(resolved("x/y/a.toml", "../../../b"), Path::new("../b"));
        assert_eq!(resolved("../a.toml", "../b"), Path::new("../../b"));
        assert_eq!(resolved("/r/e/a.toml", "../b"), Path::new("/r/b"));
        assert_eq!(
            resolved("/data/runs/a.toml", "out"),
            Path::new("/data/runs/out")
        );
        assert_eq!(resolved("a.toml", "a.jsonl"), Path::new("a.jsonl"));
    }

    #[test]
    fn absolute_paths_are_kept() {
        assert_eq!(
            resolved("experiments/a.toml", "/tmp/a.jsonl"),
            Path::new("/tmp/a.jsonl")
        );
    }
}
