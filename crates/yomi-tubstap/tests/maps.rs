//! `.tbsmap` reading and writing: every shared platform map loads and round-trips, the
//! built-in maps are valid and symmetric, and malformed maps get errors naming line and field.

mod common;

use yomi_core::Game;
use yomi_tubstap::{maps, MapError, TbsMap, Terrain, Tubstap, UnitKind};

#[test]
fn every_shared_map_loads_and_round_trips() {
    let files = common::shared_map_files();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let map = TbsMap::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let written = map.to_string();
        let back = TbsMap::parse(&written).unwrap();
        assert_eq!(back, map, "{}", path.display());
        assert_eq!(back.to_string(), written);
        let name = path.file_stem().unwrap().to_str().unwrap();
        let game = Tubstap::new(name, map).unwrap();
        let s = game.initial_state();
        assert!(!game.is_terminal(&s), "{name}");
        let mut moves = Vec::new();
        game.legal_moves(&s, &mut moves);
        assert!(moves.len() > 1, "{name}: {moves:?}");
    }
    if !files.is_empty() {
        assert!(
            files.len() >= 40,
            "expected the platform's ~66 maps, found {}",
            files.len()
        );
    }
}

#[test]
fn shared_map_details() {
    let Some(dir) = common::shared_maps() else {
        return;
    };
    let map01 = TbsMap::parse(&std::fs::read_to_string(dir.join("map01.tbsmap")).unwrap()).unwrap();
    assert_eq!(
        (
            map01.width,
            map01.height,
            map01.turn_limit,
            map01.hp_threshold
        ),
        (8, 8, 29, 10)
    );
    assert_eq!(map01.units.len(), 12);
    assert_eq!(map01.units[5].kind, UnitKind::Cannon);
    assert_eq!(map01.terrain_at(4, 2), Terrain::Mountain);
    assert_eq!(map01.author.as_deref(), Some("Fujiki"));
    // A unit flagged finished.
    let map02 = TbsMap::parse(&std::fs::read_to_string(dir.join("map02.tbsmap")).unwrap()).unwrap();
    assert!(map02
        .units
        .iter()
        .any(|u| u.finished && u.kind == UnitKind::Attacker));
    // testMurayama declares two blue units but places one: accepted, with a warning.
    let m =
        TbsMap::parse(&std::fs::read_to_string(dir.join("testMurayama.tbsmap")).unwrap()).unwrap();
    assert_eq!(
        m.warnings(),
        vec!["UNITNUMBLUE declares 2 units but the map places 1".to_string()]
    );
}

#[test]
fn builtin_maps_are_valid_and_point_symmetric() {
    for name in maps::names() {
        let map = maps::builtin_map(name).unwrap();
        map.validate().unwrap();
        assert!(map.warnings().is_empty(), "{name}");
        let (w, h) = (map.width, map.height);
        for y in 0..h {
            for x in 0..w {
                assert_eq!(
                    map.terrain_at(x, y),
                    map.terrain_at(w - 1 - x, h - 1 - y),
                    "{name} {x},{y}"
                );
            }
        }
        let reds: Vec<_> = map.team_units(0).collect();
        let blues: Vec<_> = map.team_units(1).collect();
        assert_eq!(reds.len(), blues.len());
        for (r, b) in reds.iter().zip(&blues) {
            assert_eq!((r.kind, r.hp), (b.kind, b.hp));
            assert_eq!(
                (b.x as usize, b.y as usize),
                (w - 1 - r.x as usize, h - 1 - r.y as usize)
            );
        }
        assert_eq!(TbsMap::parse(&map.to_string()).unwrap(), map);
    }
    let std = maps::standard();
    assert_eq!((std.map().width, std.map().height, std.units()), (8, 8, 12));
    assert_eq!(std.facts().name, "tubstap:standard");
}

fn err(text: &str) -> MapError {
    TbsMap::parse(text).unwrap_err()
}

const GOOD: &str = "SIZEX[5];SIZEY[4];
TURNLIMIT[10];HPTHRESHOLD[0];
UNITNUMRED[1];UNITNUMBLUE[1];
UNIT[1,1,panzer,0,10,0];
UNIT[3,2,infantry,1,10,0];
MAP[0,0,0,0,0];
MAP[0,1,1,1,0];
MAP[0,1,3,1,0];
MAP[0,0,0,0,0];
";

#[test]
fn malformed_maps_name_line_and_field() {
    TbsMap::parse(GOOD).unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT[1,1,tank,0,10,0];",
            &["line 4", "UNIT #0 type", "\"tank\"", "panzer"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT[1,1,panzer,0,11,0];",
            &["line 4", "UNIT #0 hp", "1 to 10"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT[1,1,panzer,0,10];",
            &["line 4", "UNIT #0", "6 comma-separated"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT[0,1,panzer,0,10,0];",
            &["line 4", "UNIT #0 position", "inside the border"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT[3,2,panzer,0,10,0];",
            &["line 5", "UNIT #1", "already holds unit #0"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT[1,1,panzer,2,10,0];",
            &["line 4", "team"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT[1,1,panzer,0,10,x];",
            &["line 4", "finished"],
        ),
        (
            "MAP[0,1,3,1,0];",
            "MAP[0,1,7,1,0];",
            &["line 8", "MAP row 2 column 2", "terrain code"],
        ),
        (
            "MAP[0,1,3,1,0];",
            "MAP[0,1,3,1];",
            &["line 8", "MAP row 2", "4 cells for SIZEX[5]"],
        ),
        (
            "MAP[0,1,1,1,0];",
            "MAP[1,1,1,1,0];",
            &["line 7", "MAP row 1 column 0", "border"],
        ),
        ("MAP[0,1,1,1,0];\n", "", &["3 MAP rows for SIZEY[4]"]),
        (
            "TURNLIMIT[10]",
            "TURNLIMIT[ten]",
            &["line 2", "TURNLIMIT", "integer"],
        ),
        ("TURNLIMIT[10];", "", &["missing field TURNLIMIT"]),
        (
            "UNITNUMRED[1]",
            "UNITNUMRED[0]",
            &[
                "line 3",
                "UNITNUMRED",
                "declares 0 units but the map places 1",
            ],
        ),
        (
            "SIZEX[5];",
            "SIZEX[5];SIZEX[6];",
            &["line 1", "SIZEX given twice"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT[1,1,panzer,0,10,0;",
            &["line 4", "';' before the closing ']'"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNIT(1,1);",
            &["line 4", "no '['"],
        ),
        (
            "UNIT[1,1,panzer,0,10,0];",
            "UNITS[1];",
            &["line 4", "unknown field \"UNITS\""],
        ),
        (
            "UNIT[3,2,infantry,1,10,0];",
            "",
            &["blue team has no units"],
        ),
    ];
    for (from, to, needles) in cases {
        let text = GOOD.replacen(from, to, 1);
        let msg = err(&text).to_string();
        for n in *needles {
            assert!(msg.contains(n), "{to:?}: {msg:?} lacks {n:?}");
        }
    }
    // Never a panic on damaged input.
    for cut in 0..GOOD.len() {
        let _ = TbsMap::parse(&GOOD[..cut]);
        let _ = TbsMap::parse(&GOOD[cut..]);
    }
    assert!(matches!(err(""), MapError::Missing { .. }));
    assert!(matches!(err("]]]"), MapError::Syntax { line: 1, .. }));
}

#[test]
fn a_unit_may_start_where_it_cannot_go() {
    // As on the platform (genmap-4u-1 has a cannon on a mountain): accepted, with a warning.
    let text = GOOD.replace("MAP[0,1,1,1,0];", "MAP[0,2,1,1,0];");
    let map = TbsMap::parse(&text).unwrap();
    assert_eq!(
        map.warnings(),
        vec!["unit #0 (panzer) starts on sea at 1,1, which it cannot enter".to_string()]
    );
    let game = Tubstap::new("sea", map).unwrap();
    let s = game.initial_state();
    let mut moves = Vec::new();
    game.unit_actions(&s, 0, &mut moves);
    let off = *moves
        .iter()
        .find(|m| m.action().is_some_and(|a| (a.x, a.y) == (2, 1)))
        .unwrap();
    let mut t = s.clone();
    game.play(&mut t, off).unwrap();
    assert_eq!((t.unit(0).x, t.unit(0).y), (2, 1));
    // It cannot go back; a position with it on its starting sea cell is still readable.
    let text = game.format_state(&t).replace("2,1:10", "1,1:10");
    assert_eq!(game.parse_state(&text).unwrap().unit(0).x, 1);
}

#[test]
fn load_reports_paths() {
    let e = maps::load("/nonexistent/x.tbsmap").unwrap_err().to_string();
    assert!(e.contains("/nonexistent/x.tbsmap"), "{e}");
    assert_eq!(maps::load("duel").unwrap().name(), "tubstap:duel");
    let dir = std::env::temp_dir().join(format!("yomi-tubstap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("tiny.tbsmap");
    std::fs::write(&p, GOOD).unwrap();
    assert_eq!(
        maps::load(p.to_str().unwrap()).unwrap().name(),
        "tubstap:tiny"
    );
    std::fs::write(&p, GOOD.replace("panzer", "tank")).unwrap();
    let e = maps::load(p.to_str().unwrap()).unwrap_err().to_string();
    assert!(e.contains("tiny.tbsmap") && e.contains("line 4"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}
