//! The labelled-data file is a `yomi_core::journal`: a resumed run keeps finished labels
//! (even ones it would label differently), other settings and a second writer are refused,
//! and files of the older format (the bare data header as first line) resume as they are.

use yomi_core::journal::{JournalError, JournalFile};
use yomi_core::testing::Nim;
use yomi_learn::data::{generate, read_data, DataConfig, Labelled};
use yomi_learn::LearnError;

fn config() -> DataConfig {
    DataConfig {
        states: 8,
        iterations: 100,
        seed: 11,
    }
}

fn line(r: &Labelled) -> String {
    serde_json::to_string(r).unwrap()
}

#[test]
fn a_resumed_run_keeps_finished_labels_and_labels_only_the_rest() {
    let game = Nim::new(12);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.jsonl");
    let data = generate(&game, &config(), &path, true).unwrap();
    assert_eq!(data.len(), 8);
    let text = std::fs::read_to_string(&path).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.starts_with("{\"yomi_journal\":{\"settings\":{")
            && header.contains("\"yomi_learn_data\":1"),
        "{header}"
    );
    // Keep five labels, one of them marked (a re-run of its search would not give it).
    let mut kept: Vec<Labelled> = data[..5].to_vec();
    kept[2].value = 0.125;
    kept[2].best = "marked".into();
    let body: Vec<String> = kept.iter().map(line).collect();
    std::fs::write(&path, format!("{header}\n{}\n", body.join("\n"))).unwrap();
    let again = generate(&game, &config(), &path, true).unwrap();
    assert_eq!(again[..5], kept[..], "finished labels are kept as they are");
    assert_eq!(again[5..], data[5..], "the rest is labelled as before");
    let now = std::fs::read_to_string(&path).unwrap();
    assert_eq!(now.lines().count(), 9, "{now}");
}

#[test]
fn other_settings_and_a_second_writer_are_refused() {
    let game = Nim::new(12);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.jsonl");
    generate(&game, &config(), &path, true).unwrap();
    let before = std::fs::read(&path).unwrap();
    let more = DataConfig {
        iterations: 200,
        ..config()
    };
    let err = generate(&game, &more, &path, true).unwrap_err();
    assert!(
        matches!(err, LearnError::Journal(JournalError::Settings { .. })),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("iterations: 200 here, 100 in the file"),
        "{err}"
    );
    let held = JournalFile::lock(&path).unwrap();
    let err = generate(&game, &config(), &path, true).unwrap_err();
    assert!(
        matches!(err, LearnError::Journal(JournalError::Locked { .. })),
        "{err}"
    );
    drop(held);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_file_of_the_older_format_resumes_and_its_settings_are_checked() {
    let game = Nim::new(12);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.jsonl");
    let data = generate(&game, &config(), &path, true).unwrap();
    // The older format: the bare header first, then labels; one missing, one torn.
    let old_header = "{\"yomi_learn_data\":1,\"game\":\"nim\",\"seed\":11,\"iterations\":100}";
    let body: Vec<String> = data[..6].iter().map(line).collect();
    let old = format!(
        "{old_header}\n{}\n{}",
        body.join("\n"),
        &line(&data[6])[..15]
    );
    std::fs::write(&path, &old).unwrap();
    let (header, read) = read_data(&path).unwrap();
    assert_eq!((header.seed, read.len()), (11, 6));
    let again = generate(&game, &config(), &path, true).unwrap();
    assert_eq!(again, data);
    let now = std::fs::read_to_string(&path).unwrap();
    assert!(now.starts_with(&format!("{old_header}\n")), "{now}");
    assert_eq!(now.lines().count(), 9, "{now}");
    let other = DataConfig {
        seed: 12,
        ..config()
    };
    let err = generate(&game, &other, &path, true).unwrap_err();
    assert!(
        err.to_string().contains("seed: 12 here, 11 in the file"),
        "{err}"
    );
}
