//! `yomi --help` lists every subcommand, each answers `--help` with its own text, and the
//! README names each one: the list below is the command line's vocabulary, so adding,
//! removing or hiding a subcommand fails here until the help and the README follow.

mod common;

use common::yomi;

/// Every subcommand of `yomi`, in the order `--help` lists them.
const SUBCOMMANDS: &[&str] = &[
    "games",
    "agents",
    "play",
    "match",
    "tournament",
    "bench",
    "report",
    "export",
    "ggp",
    "learn",
    "go",
    "othello",
    "tubstap",
    "cgt",
    "geister",
    "serve",
];

/// The subcommand names of a clap help text's `Commands:` section.
fn listed(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect()
}

/// `--threads` says how many threads the command uses, in every command: its help starts
/// "Threads to use".
fn threads_means_one_thing(cmd: &str, help: &str) {
    let lines: Vec<&str> = help.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let Some(at) = l.find("--threads <") else {
            continue;
        };
        let rest = l[at..].split_once('>').map_or("", |(_, r)| r.trim());
        let text = if rest.is_empty() {
            lines.get(i + 1).map_or("", |n| n.trim())
        } else {
            rest
        };
        assert!(
            text.starts_with("Threads to use"),
            "{cmd}: --threads is described as {text:?}"
        );
    }
}

/// `--seed` has one default everywhere (`yomi_core::rng::DEFAULT_SEED`, 0); a seed that
/// overrides a file's has none.
fn one_default_seed(cmd: &str, help: &str) {
    let lines: Vec<&str> = help.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if !l.contains("--seed <") {
            continue;
        }
        // The option's text runs to the next option.
        let text: String = std::iter::once(*l)
            .chain(
                lines[i + 1..]
                    .iter()
                    .take_while(|n| !n.trim_start().starts_with('-'))
                    .copied(),
            )
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(at) = text.find("[default: ") {
            let value = text[at + 10..].split(']').next().unwrap_or("");
            assert_eq!(value, "0", "{cmd}: --seed defaults to {value}");
        }
    }
}

#[test]
fn help_lists_every_subcommand_and_each_has_its_own_help() {
    let top = yomi(&["--help"]);
    top.ok();
    assert_eq!(listed(&top.stdout), SUBCOMMANDS, "{}", top.stdout);
    for cmd in SUBCOMMANDS {
        let r = yomi(&[cmd, "--help"]);
        r.ok();
        assert!(
            r.stdout.contains("Usage: yomi"),
            "{cmd} --help:\n{}",
            r.stdout
        );
        threads_means_one_thing(cmd, &r.stdout);
        one_default_seed(cmd, &r.stdout);
        // Subcommands with subcommands of their own list them too, each with a help.
        for sub in listed(&r.stdout) {
            let s = yomi(&[cmd, &sub, "--help"]);
            s.ok();
            threads_means_one_thing(&format!("{cmd} {sub}"), &s.stdout);
            one_default_seed(&format!("{cmd} {sub}"), &s.stdout);
        }
    }
}

#[test]
fn the_readme_names_every_subcommand() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md at the repository root");
    for cmd in SUBCOMMANDS {
        assert!(
            readme.contains(&format!("yomi {cmd}")) || readme.contains(&format!("yomi -- {cmd}")),
            "README.md never shows `yomi {cmd}`"
        );
    }
}
